#include "store/index_walk.hpp"

#include <rocksdb/db.h>
#include <rocksdb/snapshot.h>

#include <memory>

namespace vouch::store {

base::Status walk_index(Database& database, std::string_view prefix, std::string_view start,
                        const std::function<std::string(std::string_view id)>& record_key,
                        const std::function<base::Result<bool>(std::string_view record)>& visit) {
  rocksdb::ManagedSnapshot snapshot(&database.db());
  rocksdb::ReadOptions read_options;
  read_options.snapshot = snapshot.snapshot();
  std::unique_ptr<rocksdb::Iterator> it(database.db().NewIterator(read_options, database.views()));
  for (it->Seek(start); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    std::string text;
    const auto status = database.db().Get(read_options, database.views(),
                                          record_key(it->value().ToStringView()), &text);
    if (status.IsNotFound()) continue;
    if (!status.ok()) return base::Error::internal(status.ToString());
    auto go_on = visit(text);
    if (!go_on) return std::move(go_on).error();
    if (!*go_on) break;
  }
  if (!it->status().ok()) return base::Error::internal(it->status().ToString());
  return base::ok_status();
}

base::Status scan_prefix(
    Database& database, std::string_view prefix,
    const std::function<base::Status(std::string_view rest, std::string_view value)>& visit) {
  std::unique_ptr<rocksdb::Iterator> it(
      database.db().NewIterator(rocksdb::ReadOptions(), database.views()));
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    auto visited =
        visit(it->key().ToStringView().substr(prefix.size()), it->value().ToStringView());
    if (!visited) return visited;
  }
  if (!it->status().ok()) return base::Error::internal(it->status().ToString());
  return base::ok_status();
}

base::Status walk_listed(Database& database, std::string_view prefix,
                         const std::function<std::string(std::string_view id)>& record_key,
                         const std::function<base::Status(std::string_view record)>& visit) {
  return scan_prefix(database, prefix, [&](std::string_view id, std::string_view) {
    std::string text;
    auto status =
        database.db().Get(rocksdb::ReadOptions(), database.views(), record_key(id), &text);
    if (!status.ok()) return base::Status(base::Error::internal(status.ToString()));
    return visit(text);
  });
}

}  // namespace vouch::store
