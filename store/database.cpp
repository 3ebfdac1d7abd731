#include "store/database.hpp"

#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>

namespace vouch::store {

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

  const std::vector<rocksdb::ColumnFamilyDescriptor> families{
      {rocksdb::kDefaultColumnFamilyName, cf_options},
      {"events", cf_options},
      {"streams", cf_options},
      {"views", cf_options}};

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
