#pragma once

#include <rocksdb/db.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.hpp"
#include "store/database.hpp"
#include "store/index_walk.hpp"
#include "store/key_coding.hpp"
#include "store/page.hpp"
#include "store/projection.hpp"
#include "store/read_memo.hpp"

namespace vouch::store {

// The records of a read model that belong to accounts (projects, tests, runs,
// webhooks; each T has an `account`), and indexes over them in log order:
// writing and erasing them while folding, finding one for an account, and
// paging an index with a `startingAfter` cursor. The one way every such read
// model keeps, finds and pages its records.
//
// Keys, under the read model's `area` ("projects"): "<area>/id/<id>" holds a
// record, "<area>/pos/<id>" the log position it was created at, and the
// index `name` of an owner is keys::owner_index("<area>/<name>", owner, ·),
// whose entries hold ids.
template <class T>
class OwnedRecords {
 public:
  using Decode = base::Result<T> (*)(std::string_view text);

  // An index over some of the records: its entries' prefix, and the key of
  // the entry at a log position.
  struct Index {
    std::string prefix;
    std::function<std::string(std::uint64_t position)> entry;
    std::string scope;  // "of this account": for errors
    // Whether a cursor's record is in this index; every one of the account's when unset.
    std::function<bool(const T&)> holds;
  };

  // `noun` ("project") names a record in errors; `decode` reads one.
  // The records read are kept in memory up to `kept_bytes` (ReadMemo).
  OwnedRecords(Database& database, std::string area, std::string noun, Decode decode,
               std::size_t kept_bytes)
      : database_(database),
        area_(std::move(area)),
        noun_(std::move(noun)),
        decode_(decode),
        found_(kept_bytes) {}

  const std::string& area() const { return area_; }
  const std::string& noun() const { return noun_; }
  // Bytes of records kept in memory (ReadMemo::bytes()).
  std::size_t memo_bytes() const { return found_.bytes(); }
  std::string record_key(std::string_view id) const { return keys::record(area_, id); }
  std::string position_key(std::string_view id) const { return keys::record_position(area_, id); }

  // The index `name` of `owner` ("acct", account: "of this account").
  Index index(std::string_view name, std::string owner, std::string scope,
              std::function<bool(const T&)> holds = {}) const {
    std::string index_name = keys::index_name(area_, name);
    return {keys::owner_index_prefix(index_name, owner),
            [index_name, owner](std::uint64_t position) {
              return keys::owner_index(index_name, owner, position);
            },
            std::move(scope), std::move(holds)};
  }

  // Folding: a new record (`text`, encoded) created at log `position`, with
  // its entry in the index `name` of `owner`.
  void insert(ViewWriter& writer, std::string_view id, std::string_view text,
              std::uint64_t position, std::string_view name, std::string_view owner) {
    put(writer, id, text);
    writer.put(position_key(id), keys::encode_u64(position));
    writer.put(keys::owner_index(keys::index_name(area_, name), owner, position), id);
  }

  // Folding: the record's new state (`text`, encoded). Every write of a
  // record goes through here, insert() or erase(): the records found since
  // are then dropped at the commit.
  void put(ViewWriter& writer, std::string_view id, std::string_view text) {
    writer.put(record_key(id), text);
    changed_ = true;
  }

  // The batch holding the writes since the last call is committed: records
  // found before it are not trusted any more.
  void committed() {
    if (!changed_) return;
    changed_ = false;
    found_.drop();
  }

  // Folding: the record as the batch sees it; nullopt when absent or corrupt.
  std::optional<T> load(const ViewWriter& writer, std::string_view id) const {
    auto text = writer.get(record_key(id));
    if (!text) return std::nullopt;
    auto record = decode_(*text);
    if (!record) return std::nullopt;
    return std::move(record).value();
  }

  // Folding: erases a record, its position and its entry in its account's
  // index `name` (when the record is readable).
  void erase(ViewWriter& writer, std::string_view id, std::string_view name) {
    auto record = load(writer, id);
    auto position = writer.get(position_key(id));
    if (record && position) {
      writer.erase(keys::owner_index(keys::index_name(area_, name), record->account,
                                     keys::decode_u64(*position).value_or(0)));
    }
    writer.erase(record_key(id));
    writer.erase(position_key(id));
    changed_ = true;
  }

  // Every record whose id is listed under `prefix` (an index of ids, such as
  // the runs still running), in key order; kInternal when one is missing.
  base::Result<std::vector<T>> listed(std::string_view prefix) const {
    std::vector<T> out;
    auto walked = walk_listed(
        database_, prefix, [this](std::string_view id) { return record_key(id); },
        append_decoded(out, decode_));
    if (!walked) return std::move(walked).error();
    return out;
  }

  // The record `id` if it belongs to `account`; nullopt when absent or another's.
  // Records found are kept in memory until a commit changes any record of
  // this read model (a hot project is read without the database or decoding).
  base::Result<std::optional<T>> find(const std::string& account, std::string_view id) const {
    const std::string key(id);
    std::size_t stored_size = 0;
    auto record = found_.find(
        key,
        [&]() -> base::Result<std::optional<T>> {
          std::string text;
          auto status =
              database_.db().Get(rocksdb::ReadOptions(), database_.views(), record_key(key), &text);
          if (status.IsNotFound()) return std::optional<T>{};
          if (!status.ok()) return base::Error::internal(status.ToString());
          stored_size = text.size();
          auto decoded = decode_(text);
          if (!decoded) return std::move(decoded).error();
          return std::optional<T>{std::move(decoded).value()};
        },
        [&](const std::optional<T>&) { return stored_size; });
    if (!record) return std::move(record).error();
    if (!*record || (*record)->account != account) return std::optional<T>{};
    return record;
  }

  // At most `limit` of the account's records in `index`, oldest first,
  // after the record `starting_after` (which must be one of them: kInvalid
  // naming startingAfter otherwise).
  base::Result<Page<T>> list(const std::string& account, const Index& index,
                             const std::optional<std::string>& starting_after,
                             std::size_t limit) const {
    std::string start = index.prefix;
    if (starting_after) {
      auto cursor = find(account, *starting_after);
      if (!cursor) return std::move(cursor).error();
      std::string position;
      if (!*cursor || (index.holds && !index.holds(**cursor)) ||
          !database_.db()
               .Get(rocksdb::ReadOptions(), database_.views(), position_key(*starting_after),
                    &position)
               .ok()) {
        return base::Error::invalid("startingAfter names no " + noun_ + " " + index.scope,
                                    {{"startingAfter", "no " + noun_ + " " + *starting_after}});
      }
      start = index.entry(keys::decode_u64(position).value_or(0) + 1);
    }
    return read_page<T>(
        database_, index.prefix, start, [this](std::string_view id) { return record_key(id); },
        limit,
        [&](std::string_view text) -> base::Result<std::optional<T>> {
          auto record = decode_(text);
          if (!record) return std::move(record).error();
          if (record->account != account) return std::optional<T>{};
          return std::optional<T>(std::move(record).value());
        });
  }

 private:
  Database& database_;
  std::string area_;
  std::string noun_;
  Decode decode_;
  bool changed_ = false;  // a record written since the last commit (projector thread)
  ReadMemo<std::optional<T>> found_;
};

// A read model of records that belong to accounts, kept in `records_` under
// the read model's name.
template <class T>
class OwnedView : public StoredView {
 public:
  // nullopt when missing, deleted or owned by another account.
  [[nodiscard]] base::Result<std::optional<T>> find(const std::string& account,
                                                    const std::string& id) const {
    return records_.find(account, id);
  }

  void committed() override { records_.committed(); }
  // Bytes of records kept in memory (ReadMemo::bytes()).
  std::size_t memo_bytes() const { return records_.memo_bytes(); }

  // The same, with kNotFound "no <noun> <id>" for nullopt: what a request for
  // a record that the caller cannot see gets.
  [[nodiscard]] base::Result<T> get(const std::string& account, const std::string& id) const {
    auto found = records_.find(account, id);
    if (!found) return std::move(found).error();
    if (!*found) return base::Error::not_found("no " + records_.noun() + " " + id);
    return std::move(**found);
  }

 protected:
  // `name` ("projects") names the projection and the area of its keys.
  OwnedView(Database& database, std::string name, std::string noun,
            typename OwnedRecords<T>::Decode decode, std::size_t kept_bytes)
      : StoredView(database, name),
        records_(database, std::move(name), std::move(noun), decode, kept_bytes) {}

  OwnedRecords<T> records_;
};

}  // namespace vouch::store
