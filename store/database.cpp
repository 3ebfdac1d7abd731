#include "store/database.hpp"

#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/table.h>

namespace vouch::store {
namespace {

// The part of a key before its first NUL, the NUL included: the stream of a
// stream index key (`i<stream>\0<version>`), the webhook of a delivery-log
// key (`deliveries/hook/<id>\0<position>`). Keys under one such prefix are
// written in increasing order, so RocksDB can insert each next to the one
// before (memtable_insert_with_hint_prefix_extractor) instead of searching
// the skip list from its top. Keys without a NUL are inserted as usual.
class UpToFirstNul : public rocksdb::SliceTransform {
 public:
  const char* Name() const override { return "vouch.UpToFirstNul"; }
  rocksdb::Slice Transform(const rocksdb::Slice& key) const override {
    const auto nul = key.ToStringView().find('\0');
    return rocksdb::Slice(key.data(), nul + 1);
  }
  bool InDomain(const rocksdb::Slice& key) const override {
    return key.ToStringView().find('\0') != std::string_view::npos;
  }
};

}  // namespace

events::Result<std::unique_ptr<Database>> Database::open(const std::filesystem::path& folder) {
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) return events::Error::internal("cannot create " + folder.string() + ": " + ec.message());

  rocksdb::Options options;
  options.create_if_missing = true;
  options.create_missing_column_families = true;
  options.IncreaseParallelism(2);
  // Reads (auth, GETs) hit small hot keys; a bloom filter keeps misses cheap.
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  rocksdb::ColumnFamilyOptions cf_options(options);
  cf_options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));

  // Log positions only grow: every insert into `events` goes after the last.
  rocksdb::ColumnFamilyOptions events_options = cf_options;
  events_options.memtable_insert_with_hint_prefix_extractor.reset(
      rocksdb::NewFixedPrefixTransform(0));
  rocksdb::ColumnFamilyOptions indexed_options = cf_options;
  indexed_options.memtable_insert_with_hint_prefix_extractor = std::make_shared<UpToFirstNul>();

  const std::vector<rocksdb::ColumnFamilyDescriptor> families{
      {rocksdb::kDefaultColumnFamilyName, cf_options},
      {"events", events_options},
      {"streams", indexed_options},
      {"views", indexed_options}};

  std::unique_ptr<Database> database(new Database());
  database->folder_ = folder;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status status = rocksdb::DB::Open(rocksdb::DBOptions(options), folder.string(), families,
                                             &database->handles_, &raw);
  if (!status.ok()) {
    return events::Error::internal("cannot open the data folder " + folder.string() + ": " +
                                   status.ToString());
  }
  database->db_.reset(raw);
  return database;
}

Database::~Database() {
  if (!db_) return;
  for (auto* handle : handles_) db_->DestroyColumnFamilyHandle(handle);
  db_->Close();
}

}  // namespace vouch::store
