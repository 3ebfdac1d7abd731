#include "store/database.hpp"

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/listener.h>
#include <rocksdb/options.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/table.h>
#include <rocksdb/transaction_log.h>
#include <rocksdb/write_batch.h>
#include <rocksdb/write_buffer_manager.h>

#include <algorithm>

#include "log/log.hpp"
#include "store/info_log.hpp"
#include "store/key_coding.hpp"

namespace vouch::store {
namespace {

// The "folder" of a key, for memtable_insert_with_hint_prefix_extractor:
// keys under one folder are mostly written in increasing order, so RocksDB
// can insert each next to the one before instead of searching the skip list
// from its top. The folder is the part before the first NUL, the NUL
// included: the stream of a stream index key (`i<stream>\0<version>`), the
// webhook of a delivery-log key (`deliveries/hook/<id>\0<position>`). A key
// without a NUL is a record under its id, and its folder is the part up to
// its last '/' (`events/id/`, `deliveries/id/`): event and delivery ids are
// time-ordered (base::new_time_ordered_id). Other keys get no hint.
class KeyFolder : public rocksdb::SliceTransform {
 public:
  const char* Name() const override { return "vouch.KeyFolder"; }
  rocksdb::Slice Transform(const rocksdb::Slice& key) const override {
    return rocksdb::Slice(key.data(), folder_size(key.ToStringView()));
  }
  bool InDomain(const rocksdb::Slice& key) const override {
    return folder_size(key.ToStringView()) != 0;
  }

 private:
  static std::size_t folder_size(std::string_view key) {
    if (const auto nul = key.find('\0'); nul != std::string_view::npos) return nul + 1;
    if (const auto slash = key.rfind('/'); slash != std::string_view::npos) return slash + 1;
    return 0;
  }
};

// Sizes the levels of a column family after its memtables, as RocksDB's
// tuning guide (and ColumnFamilyOptions::OptimizeLevelStyleCompaction) does:
// level 1 holds about what level 0 holds when it is compacted, and files are
// an eighth of that. RocksDB's defaults (a 256 MiB level 1 of 64 MiB files)
// suit 64 MiB memtables, not the budget's smaller ones. A file flushed from
// the `views` memtable spans the whole key range (new records beside updated
// old ones), so every level-0 compaction rewrites all of level 1: with the
// defaults that grew to 150 MiB per compaction in a 5-minute soak, and
// compactions took a growing share of the 2 cores from the requests.
// Levels 0 and 1, rewritten most often, are not compressed.
void size_levels(rocksdb::ColumnFamilyOptions& options) {
  options.max_bytes_for_level_base =
      options.write_buffer_size *
      static_cast<std::uint64_t>(options.level0_file_num_compaction_trigger);
  options.target_file_size_base = options.max_bytes_for_level_base / 8;
  options.compression_per_level.assign(static_cast<std::size_t>(options.num_levels),
                                       rocksdb::kSnappyCompression);
  options.compression_per_level[0] = rocksdb::kNoCompression;
  options.compression_per_level[1] = rocksdb::kNoCompression;
}

// How long a client is told to wait before writing again.
constexpr unsigned kRetryAfterSeconds = 5;

// Room kept free beyond what resuming writes (the memtables' flush, a new
// write-ahead log): a new MANIFEST, OPTIONS and log lines.
constexpr std::uint64_t kResumeMarginBytes = 4 << 20;

// How long DB::Resume() may run before health() says it is stuck (see
// Database::try_resume()).
constexpr std::chrono::seconds kResumeLimit{30};

// A failure of the storage (as opposed to a refused request, e.g. a batch
// too large): it closes the gate.
bool is_storage_fault(const rocksdb::Status& status) {
  return status.IsIOError() || status.IsCorruption() || status.IsIOFenced();
}

bool is_out_of_space(const rocksdb::Status& status) {
  return status.IsNoSpace() || status.subcode() == rocksdb::Status::SubCode::kSpaceLimit;
}

}  // namespace

// Told by RocksDB of background errors (a failed flush, compaction or
// write-ahead log write); closes the gate, and keeps RocksDB from resuming
// on its own (see the class comment).
class Database::FaultListener : public rocksdb::EventListener {
 public:
  explicit FaultListener(Database& database) : database_(database) {}
  const char* Name() const override { return "vouch.FaultListener"; }
  void OnBackgroundError(rocksdb::BackgroundErrorReason reason, rocksdb::Status* error) override {
    if (error == nullptr || error->ok()) return;
    // A write (or a memtable switch) that failed used the write-ahead log.
    const bool wal = reason == rocksdb::BackgroundErrorReason::kWriteCallback ||
                     reason == rocksdb::BackgroundErrorReason::kMemTable;
    database_.record_fault(*error, wal);
  }
  void OnErrorRecoveryBegin(rocksdb::BackgroundErrorReason, rocksdb::Status,
                            bool* auto_recovery) override {
    if (auto_recovery != nullptr) *auto_recovery = false;
  }

 private:
  Database& database_;
};

base::Result<std::unique_ptr<Database>> Database::open(const std::filesystem::path& folder,
                                                       Options database_options) {
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) return base::Error::internal("cannot create " + folder.string() + ": " + ec.message());

  auto info_log = InfoLog::open(folder);
  if (!info_log) return std::move(info_log).error();

  rocksdb::Options options;
  options.info_log = *info_log;
  options.create_if_missing = true;
  options.create_missing_column_families = true;
  options.IncreaseParallelism(2);
  if (database_options.env != nullptr) options.env = database_options.env;
  // Recovery is the Database's (run_recovery): RocksDB's retries may resume
  // writing on the write-ahead log that failed.
  options.max_bgerror_resume_count = 0;
  auto cache = rocksdb::NewLRUCache(database_options.memory.cache_bytes);
  auto write_buffers = std::make_shared<rocksdb::WriteBufferManager>(
      database_options.memory.write_buffer_bytes, cache);
  options.write_buffer_manager = write_buffers;
  // Reads (auth, GETs) hit small hot keys; a bloom filter keeps misses cheap.
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  table.block_cache = cache;
  table.cache_index_and_filter_blocks = true;
  table.pin_l0_filter_and_index_blocks_in_cache = true;
  // Indexes and filters in 4 KiB partitions under a small top level: a whole
  // index of a large table (a megabyte) did not stay in a cache shard beside
  // the memtables' reservations, so every seek (a page of a list) read and
  // decompressed it again: a quarter of vouchd's CPU late in the soak bench.
  table.index_type = rocksdb::BlockBasedTableOptions::IndexType::kTwoLevelIndexSearch;
  table.partition_filters = true;
  table.metadata_block_size = 4096;
  rocksdb::ColumnFamilyOptions cf_options(options);
  // A column family's memtable is flushed at a quarter of the shared budget
  // (RocksDB's default, 64 MiB each, would let four of them exceed it).
  cf_options.write_buffer_size =
      std::max<std::size_t>(database_options.memory.write_buffer_bytes / 4, 1 << 20);
  size_levels(cf_options);
  cf_options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));

  // Log positions only grow: every insert into `events` goes after the last.
  rocksdb::ColumnFamilyOptions events_options = cf_options;
  events_options.memtable_insert_with_hint_prefix_extractor.reset(
      rocksdb::NewFixedPrefixTransform(0));
  rocksdb::ColumnFamilyOptions indexed_options = cf_options;
  indexed_options.memtable_insert_with_hint_prefix_extractor = std::make_shared<KeyFolder>();

  const std::vector<rocksdb::ColumnFamilyDescriptor> families{
      {rocksdb::kDefaultColumnFamilyName, cf_options},
      {"events", events_options},
      {"streams", indexed_options},
      {"views", indexed_options},
      {"secrets", cf_options}};

  std::unique_ptr<Database> database(new Database());
  database->folder_ = folder;
  database->options_ = database_options;
  options.listeners.push_back(std::make_shared<FaultListener>(*database));
  rocksdb::DB* raw = nullptr;
  rocksdb::Status status = rocksdb::DB::Open(rocksdb::DBOptions(options), folder.string(), families,
                                             &database->handles_, &raw);
  if (!status.ok()) {
    return base::Error::internal("cannot open the data folder " + folder.string() + ": " +
                                 status.ToString());
  }
  database->db_.reset(raw);
  database->wal_preallocation_bytes_ = cf_options.write_buffer_size * 11 / 10;
  database->cache_ = std::move(cache);
  database->write_buffers_ = std::move(write_buffers);
  database->info_log_ = std::move(info_log).value();
  database->recovery_ = std::thread([db = database.get()] { db->run_recovery(); });
  return database;
}

Database::MemoryUse Database::memory_use() const {
  MemoryUse use;
  use.cache_bytes = cache_->GetUsage();
  use.cache_capacity = cache_->GetCapacity();
  use.memtable_bytes = write_buffers_->memory_usage();
  use.memtable_limit = write_buffers_->buffer_size();
  return use;
}

Database::~Database() {
  {
    const std::lock_guard lock(state_mutex_);
    closing_ = true;
  }
  recovery_wake_.notify_one();
  if (recovery_.joinable()) recovery_.join();
  if (!db_) return;
  for (auto* handle : handles_) db_->DestroyColumnFamilyHandle(handle);
  db_->Close();
}

base::Status Database::write(const rocksdb::WriteOptions& options, rocksdb::WriteBatch& batch) {
  // Checked before the lock too, so that no writer waits for a recovery.
  if (!writable_.load(std::memory_order_acquire) || !has_room_to_write()) {
    const std::lock_guard state(state_mutex_);
    return refusal();
  }
  const std::shared_lock lock(write_mutex_);
  if (!writable_.load(std::memory_order_acquire)) {
    const std::lock_guard state(state_mutex_);
    return refusal();
  }
  if (!options.disableWAL) {
    // DB::Resume() moves writes to a new write-ahead log only when some
    // column family has entries in its active memtable; an entry outside the
    // log makes sure one has (it is never read).
    std::uint64_t entries = 0;
    if (db_->GetAggregatedIntProperty("rocksdb.num-entries-active-mem-table", &entries) &&
        entries == 0) {
      rocksdb::WriteOptions anchor;
      anchor.disableWAL = true;
      auto status = db_->Put(anchor, meta(), keys::memtable_anchor(), "");
      if (!status.ok() && is_storage_fault(status)) {
        record_fault(status, false);
        const std::lock_guard state(state_mutex_);
        return refusal();
      }
    }
  }
  auto status = db_->Write(options, &batch);
  if (status.ok()) return base::ok_status();
  if (!is_storage_fault(status)) {
    return base::Error::internal("the write was refused: " + status.ToString());
  }
  record_fault(status, !options.disableWAL);
  const std::lock_guard state(state_mutex_);
  auto error = refusal();
  // Not acknowledged; after a failed fsync its bytes may still reach the disk.
  error.message = "the write was not acknowledged: " + error.message;
  return error;
}

StorageHealth Database::health() const {
  const std::lock_guard lock(state_mutex_);
  auto health = health_;
  health.problem = problem();
  health.info_log_lines_dropped = info_log_->dropped_lines();
  return health;
}

std::string Database::problem() const {
  if (resuming_since_ && std::chrono::steady_clock::now() - *resuming_since_ > kResumeLimit) {
    return health_.problem + "; RocksDB's recovery (DB::Resume) has not finished after " +
           std::to_string(kResumeLimit.count()) + " s: restart vouchd to resume writes";
  }
  return health_.problem;
}

base::Error Database::refusal() const {
  if (health_.out_of_space) {
    return base::Error::insufficient_storage(
        "the data folder's disk is full (" + problem() +
            "); writes resume by themselves once space is freed",
        kRetryAfterSeconds);
  }
  return base::Error::unavailable(
      "the data folder cannot be written (" + problem() + "); writes resume once it recovers",
      kRetryAfterSeconds);
}

std::optional<std::uint64_t> Database::current_wal() const {
  std::unique_ptr<rocksdb::LogFile> wal;
  if (!db_->GetCurrentWalFile(&wal).ok() || !wal) return std::nullopt;
  return wal->LogNumber();
}

void Database::record_fault(const rocksdb::Status& status, bool wal) {
  {
    const std::lock_guard lock(state_mutex_);
    wal_failed_ = wal_failed_ || wal;
    rocksdb_failed_ = true;
    if (!writable_.load(std::memory_order_acquire)) return;
    writable_.store(false, std::memory_order_release);
    health_.writable = false;
    health_.out_of_space = is_out_of_space(status);
    health_.problem = status.ToString();
    ++health_.faults;
    last_resume_problem_.clear();
  }
  recovery_wake_.notify_one();
  log::error("store", "writes to the data folder stopped: " + status.ToString() +
                          "; reads go on, and writes resume once the store recovers");
}

void Database::run_recovery() {
  std::unique_lock lock(state_mutex_);
  for (;;) {
    recovery_wake_.wait(lock, [this] { return closing_ || !health_.writable; });
    if (closing_) return;
    recovery_wake_.wait_for(lock, options_.recovery_interval, [this] { return closing_; });
    if (closing_) return;
    const bool out_of_space = health_.out_of_space;
    lock.unlock();
    // On a disk still full, DB::Resume() would only fail again, and wear
    // RocksDB's files with more failed writes.
    if (!out_of_space || has_room_to_resume()) try_resume();
    lock.lock();
  }
}

std::uint64_t Database::resume_reserve() const {
  // Everything in the memtables is flushed, and the next write-ahead log is
  // preallocated at 1.1 times a memtable's size (RocksDB's default).
  return write_buffers_->memory_usage() + wal_preallocation_bytes_ + kResumeMarginBytes;
}

bool Database::has_room_to_write() {
  std::uint64_t free = 0;
  // Unknown: the write goes ahead, and a failure closes the gate.
  if (!db_->GetEnv()->GetFreeSpace(folder_.string(), &free).ok()) return true;
  const auto reserve = resume_reserve();
  if (free >= reserve) return true;
  {
    const std::lock_guard lock(state_mutex_);
    health_.free_bytes = free;
    health_.resume_reserve_bytes = reserve;
    if (!writable_.load(std::memory_order_acquire)) return false;
    writable_.store(false, std::memory_order_release);
    health_.writable = false;
    health_.out_of_space = true;
    health_.problem = "only " + std::to_string(free >> 20) +
                      " MiB free on the data folder's disk, below the " +
                      std::to_string(reserve >> 20) + " MiB kept for RocksDB";
    ++health_.faults;
    last_resume_problem_.clear();
  }
  recovery_wake_.notify_one();
  log::error("store", "writes to the data folder stopped before the disk is full: " +
                          std::to_string(free >> 20) + " MiB free, " +
                          std::to_string(reserve >> 20) +
                          " MiB needed; reads go on, and writes resume once space is freed");
  return false;
}

bool Database::has_room_to_resume() {
  std::uint64_t free = 0;
  const auto status = db_->GetEnv()->GetFreeSpace(folder_.string(), &free);
  const auto reserve = resume_reserve();
  const bool room = !status.ok() || free >= reserve;  // unknown: try
  const std::lock_guard lock(state_mutex_);
  health_.free_bytes = status.ok() ? free : 0;
  health_.resume_reserve_bytes = reserve;
  return room;
}

void Database::try_resume() {
  const std::unique_lock writes(write_mutex_);
  bool resume = false;
  {
    // Nothing switches the write-ahead log between the failure and Resume()
    // (RocksDB refuses writes meanwhile): the current one is the one that failed.
    const std::lock_guard lock(state_mutex_);
    if (wal_failed_ && !failed_wal_) failed_wal_ = current_wal();
    // Stopped before the disk was full, RocksDB has nothing to resume from.
    resume = rocksdb_failed_;
    if (resume) resuming_since_ = std::chrono::steady_clock::now();
  }
  auto status = resume ? db_->Resume() : rocksdb::Status::OK();
  std::string problem;
  bool needs_restart = false;
  if (!status.ok()) {
    // RocksDB resumes from hard errors (a full disk); after a fatal one (an
    // I/O error on the write-ahead log) only a new open does.
    needs_restart = status.severity() >= rocksdb::Status::Severity::kFatalError;
    problem = needs_restart ? status.ToString() + "; restart vouchd to resume writes"
                            : "resuming failed: " + status.ToString();
  } else {
    const std::lock_guard lock(state_mutex_);
    const auto wal = current_wal();
    if (resume && wal_failed_ && (!wal || !failed_wal_ || *wal == *failed_wal_)) {
      problem = "the write-ahead log that failed is still in use; restart vouchd to resume writes";
      needs_restart = true;
    }
  }
  const std::lock_guard lock(state_mutex_);
  resuming_since_.reset();
  if (!problem.empty()) {
    if (needs_restart) health_.problem = problem;
    if (problem != last_resume_problem_) {
      last_resume_problem_ = problem;
      log::warn("store", problem);
    }
    return;
  }
  wal_failed_ = false;
  rocksdb_failed_ = false;
  failed_wal_.reset();
  health_.writable = true;
  health_.out_of_space = false;
  health_.problem.clear();
  ++health_.recoveries;
  writable_.store(true, std::memory_order_release);
  log::info("store", "writes to the data folder resumed");
}

base::Result<std::optional<std::string>> Database::read_view(std::string_view key) const {
  std::string value;
  const auto status = db_->Get(rocksdb::ReadOptions(), views(), key, &value);
  if (status.IsNotFound()) return std::optional<std::string>{};
  if (!status.ok()) return base::Error::internal(status.ToString());
  return std::optional<std::string>{std::move(value)};
}

}  // namespace vouch::store
