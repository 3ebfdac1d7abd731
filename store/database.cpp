#include "store/database.hpp"

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/table.h>
#include <rocksdb/write_buffer_manager.h>

#include <algorithm>

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

}  // namespace

base::Result<std::unique_ptr<Database>> Database::open(const std::filesystem::path& folder,
                                                       const Memory& memory) {
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) return base::Error::internal("cannot create " + folder.string() + ": " + ec.message());

  rocksdb::Options options;
  options.create_if_missing = true;
  options.create_missing_column_families = true;
  options.IncreaseParallelism(2);
  auto cache = rocksdb::NewLRUCache(memory.cache_bytes);
  options.write_buffer_manager =
      std::make_shared<rocksdb::WriteBufferManager>(memory.write_buffer_bytes, cache);
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
  cf_options.write_buffer_size = std::max<std::size_t>(memory.write_buffer_bytes / 4, 1 << 20);
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
  rocksdb::DB* raw = nullptr;
  rocksdb::Status status = rocksdb::DB::Open(rocksdb::DBOptions(options), folder.string(), families,
                                             &database->handles_, &raw);
  if (!status.ok()) {
    return base::Error::internal("cannot open the data folder " + folder.string() + ": " +
                                 status.ToString());
  }
  database->db_.reset(raw);
  database->cache_ = std::move(cache);
  return database;
}

Database::MemoryUse Database::memory_use() const {
  MemoryUse use;
  use.cache_bytes = cache_->GetUsage();
  use.cache_capacity = cache_->GetCapacity();
  if (const auto& write_buffers = db_->GetDBOptions().write_buffer_manager) {
    use.memtable_bytes = write_buffers->memory_usage();
    use.memtable_limit = write_buffers->buffer_size();
  }
  return use;
}

Database::~Database() {
  if (!db_) return;
  for (auto* handle : handles_) db_->DestroyColumnFamilyHandle(handle);
  db_->Close();
}

base::Result<std::optional<std::string>> Database::read_view(std::string_view key) const {
  std::string value;
  const auto status = db_->Get(rocksdb::ReadOptions(), views(), key, &value);
  if (status.IsNotFound()) return std::optional<std::string>{};
  if (!status.ok()) return base::Error::internal(status.ToString());
  return std::optional<std::string>{std::move(value)};
}

}  // namespace vouch::store
