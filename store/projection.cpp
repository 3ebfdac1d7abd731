#include "store/projection.hpp"

#include <rocksdb/db.h>
#include <rocksdb/utilities/write_batch_with_index.h>

#include "store/database.hpp"

namespace vouch::store {

std::optional<std::string> ViewWriter::get(std::string_view key) const {
  std::string value;
  auto status = batch_.GetFromBatchAndDB(&database_.db(), rocksdb::ReadOptions(), database_.views(),
                                         rocksdb::Slice(key.data(), key.size()), &value);
  if (!status.ok()) return std::nullopt;
  return value;
}

void ViewWriter::put(std::string_view key, std::string_view value) {
  batch_.Put(database_.views(), rocksdb::Slice(key.data(), key.size()),
             rocksdb::Slice(value.data(), value.size()));
}

void ViewWriter::erase(std::string_view key) {
  batch_.Delete(database_.views(), rocksdb::Slice(key.data(), key.size()));
}

}  // namespace vouch::store
