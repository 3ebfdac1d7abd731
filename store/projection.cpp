#include "store/projection.hpp"

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include "store/database.hpp"

namespace vouch::store {

std::optional<std::string> ViewWriter::get(std::string_view key) const {
  if (auto it = written_.find(std::string(key)); it != written_.end()) return it->second;
  std::string value;
  auto status = database_.db().Get(rocksdb::ReadOptions(), database_.views(),
                                   rocksdb::Slice(key.data(), key.size()), &value);
  if (!status.ok()) return std::nullopt;
  return value;
}

void ViewWriter::put(std::string_view key, std::string_view value) {
  batch_.Put(database_.views(), rocksdb::Slice(key.data(), key.size()),
             rocksdb::Slice(value.data(), value.size()));
  written_.insert_or_assign(std::string(key), std::string(value));
}

void ViewWriter::erase(std::string_view key) {
  batch_.Delete(database_.views(), rocksdb::Slice(key.data(), key.size()));
  written_.insert_or_assign(std::string(key), std::nullopt);
}

}  // namespace vouch::store
