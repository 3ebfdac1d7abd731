#pragma once

#include <rocksdb/db.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "events/result.hpp"
#include "store/database.hpp"
#include "store/index_walk.hpp"
#include "store/key_coding.hpp"
#include "store/page.hpp"

namespace vouch::store {

// The records of a read model that belong to accounts (projects, tests, runs,
// webhooks), each stored at record(id) with its log position at position(id),
// and indexes over them in log order: finding one for an account, and paging
// an index with a `startingAfter` cursor. The one way every such read model
// finds and pages.
template <class T>
class OwnedRecords {
 public:
  struct Layout {
    std::string noun;  // "project": for errors
    std::function<std::string(std::string_view id)> record;
    std::function<std::string(std::string_view id)> position;
    std::function<events::Result<T>(std::string_view text)> decode;
    std::function<const std::string&(const T&)> account_of;
  };

  // An index over some of the records: its entries' prefix, and the key of
  // the entry at a log position.
  struct Index {
    std::string prefix;
    std::function<std::string(std::uint64_t position)> entry;
    std::string scope;  // "of this account": for errors
    // Whether a cursor's record is in this index; every one of the account's when unset.
    std::function<bool(const T&)> holds;
  };

  OwnedRecords(Database& database, Layout layout)
      : database_(database), layout_(std::move(layout)) {}

  // The record `id` if it belongs to `account`; nullopt when absent or another's.
  events::Result<std::optional<T>> find(const std::string& account, std::string_view id) const {
    std::string text;
    auto status =
        database_.db().Get(rocksdb::ReadOptions(), database_.views(), layout_.record(id), &text);
    if (status.IsNotFound()) return std::optional<T>{};
    if (!status.ok()) return events::Error::internal(status.ToString());
    auto record = layout_.decode(text);
    if (!record) return std::move(record).error();
    if (layout_.account_of(*record) != account) return std::optional<T>{};
    return std::optional<T>{std::move(record).value()};
  }

  // At most `limit` of the account's records in `index`, oldest first,
  // after the record `starting_after` (which must be one of them: kInvalid
  // naming startingAfter otherwise).
  events::Result<Page<T>> list(const std::string& account, const Index& index,
                               const std::optional<std::string>& starting_after,
                               std::size_t limit) const {
    std::string start = index.prefix;
    if (starting_after) {
      auto cursor = find(account, *starting_after);
      if (!cursor) return std::move(cursor).error();
      std::string position;
      if (!*cursor || (index.holds && !index.holds(**cursor)) ||
          !database_.db()
               .Get(rocksdb::ReadOptions(), database_.views(), layout_.position(*starting_after),
                    &position)
               .ok()) {
        return events::Error::invalid(
            "startingAfter names no " + layout_.noun + " " + index.scope,
            {{"startingAfter", "no " + layout_.noun + " " + *starting_after}});
      }
      start = index.entry(keys::decode_u64(position).value_or(0) + 1);
    }
    return read_page<T>(database_, index.prefix, start, layout_.record, limit,
                        [&](std::string_view text) -> events::Result<std::optional<T>> {
                          auto record = layout_.decode(text);
                          if (!record) return std::move(record).error();
                          if (layout_.account_of(*record) != account) return std::optional<T>{};
                          return std::optional<T>(std::move(record).value());
                        });
  }

 private:
  Database& database_;
  Layout layout_;
};

}  // namespace vouch::store
