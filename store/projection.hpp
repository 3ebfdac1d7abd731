#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "base/result.hpp"
#include "events/event_record.hpp"

namespace rocksdb {
class WriteBatch;
}  // namespace rocksdb

namespace vouch::store {

class Database;

// What a projection writes through while folding events: one batch over the
// views column family whose reads see the batch's own earlier writes. The
// projector commits it together with the checkpoints.
//
// The batch is a plain WriteBatch; the keys it wrote are also kept in a hash
// map, so reads of the batch's own writes need no sorted index (RocksDB's
// WriteBatchWithIndex keeps a skip list beside the batch: a second sorted
// insert for every write, when only a few keys are ever read back).
class ViewWriter {
 public:
  ViewWriter(Database& database, rocksdb::WriteBatch& batch) : database_(database), batch_(batch) {}

  std::optional<std::string> get(std::string_view key) const;
  void put(std::string_view key, std::string_view value);
  void erase(std::string_view key);

 private:
  Database& database_;
  rocksdb::WriteBatch& batch_;
  // The latest write of each key in the batch; nullopt for an erase.
  std::unordered_map<std::string, std::optional<std::string>> written_;
};

// A read model: a fold over the log. apply() ignores event types it does not
// know, so adding a projection never requires touching old events.
class Projection {
 public:
  virtual ~Projection() = default;
  // Stable name; keys its checkpoint.
  virtual std::string_view name() const = 0;
  // kInternal when the event's data is corrupt.
  [[nodiscard]] virtual base::Status apply(const events::RecordedEvent& event,
                                           ViewWriter& writer) = 0;
  // Called once the batch holding everything apply() wrote since the last
  // call is committed, before the projector's checkpoint moves past it (and
  // so before a writer waiting for its change is answered): where a view
  // keeps answers in memory, they are dropped here.
  virtual void committed() {}
};

// The read models' common base: a projection named `name` that reads and
// writes its rows in `database`'s views column family.
class StoredView : public Projection {
 public:
  std::string_view name() const final { return name_; }

 protected:
  StoredView(Database& database, std::string name) : database_(database), name_(std::move(name)) {}

  Database& database_;

 private:
  std::string name_;
};

}  // namespace vouch::store
