#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "store/database.hpp"
#include "store/page.hpp"

namespace vouch::store {

// Walks an index of the views column family: every entry under `prefix`,
// from `start` on, in key order; each entry's value is an id whose record
// is at `record_key(id)`. `visit(record)` gets each record's text and says
// whether to go on. Index and records are read on one snapshot, so a page
// is consistent. Index entries whose record is gone are skipped.
[[nodiscard]] base::Status walk_index(
    Database& database, std::string_view prefix, std::string_view start,
    const std::function<std::string(std::string_view id)>& record_key,
    const std::function<base::Result<bool>(std::string_view record)>& visit);

// Every row of the views column family whose key starts with `prefix`, in
// key order: `visit(rest, value)` gets the key without the prefix and the
// value. Stops at the first error, RocksDB's (kInternal) or `visit`'s.
[[nodiscard]] base::Status scan_prefix(
    Database& database, std::string_view prefix,
    const std::function<base::Status(std::string_view rest, std::string_view value)>& visit);

// The records listed under `prefix`, one row per record keyed by the id after
// the prefix: `visit(record)` gets the text of each, read at `record_key(id)`.
// kInternal when one is missing; stops at `visit`'s first error.
[[nodiscard]] base::Status walk_listed(
    Database& database, std::string_view prefix,
    const std::function<std::string(std::string_view id)>& record_key,
    const std::function<base::Status(std::string_view record)>& visit);

// A visit that decodes each text with `decode` and appends the item to `out`
// (which must outlive it); stops at the first error.
template <class T, class Decode>
auto append_decoded(std::vector<T>& out, Decode decode) {
  return [&out, decode](std::string_view text) -> base::Status {
    auto item = decode(text);
    if (!item) return std::move(item).error();
    out.push_back(std::move(item).value());
    return base::ok_status();
  };
}

// One page of the records an index names, from `start` on: each record's
// text goes through `decode`, which gives a T, nullopt to skip the record
// (another account's), or an error; at most `limit` items, has_more when
// another would follow.
template <class T, class Decode>
[[nodiscard]] base::Result<Page<T>> read_page(
    Database& database, std::string_view prefix, std::string_view start,
    const std::function<std::string(std::string_view id)>& record_key, std::size_t limit,
    Decode decode) {
  Page<T> page;
  auto walked = walk_index(database, prefix, start, record_key,
                           [&](std::string_view text) -> base::Result<bool> {
                             base::Result<std::optional<T>> item = decode(text);
                             if (!item) return std::move(item).error();
                             if (!*item) return true;
                             if (page.items.size() == limit) {
                               page.has_more = true;
                               return false;
                             }
                             page.items.push_back(std::move(**item));
                             return true;
                           });
  if (!walked) return std::move(walked).error();
  return page;
}

}  // namespace vouch::store
