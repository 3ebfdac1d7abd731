#include "store/log_end.hpp"

#include <rocksdb/db.h>

#include <memory>
#include <string>

#include "store/key_coding.hpp"
#include "store/record_codec.hpp"

namespace vouch::store {
namespace {

base::Error mismatch(const Database& database, const std::string& what) {
  return base::Error::internal("the event log in " + database.folder().string() +
                               " does not agree with itself: " + what +
                               ". Nothing was changed; `vouchd repair --data " +
                               database.folder().string() + "` explains what it can fix.");
}

// The stored u64 at `key`; nullopt when absent.
base::Result<std::optional<std::uint64_t>> read_u64(const Database& database,
                                                    rocksdb::ColumnFamilyHandle* family,
                                                    const std::string& key,
                                                    const std::string& name) {
  std::string value;
  const auto status = database.db().Get(rocksdb::ReadOptions(), family, key, &value);
  if (status.IsNotFound()) return std::optional<std::uint64_t>{};
  if (!status.ok()) {
    return base::Error::internal("cannot read " + name + ": " + status.ToString());
  }
  auto number = keys::decode_u64(value);
  if (!number) return mismatch(database, name + " is not an 8-byte number");
  return std::optional<std::uint64_t>{*number};
}

}  // namespace

base::Result<std::uint64_t> read_log_end(const Database& database) {
  std::uint64_t end = 0;
  std::optional<events::RecordedEvent> last;
  {
    std::unique_ptr<rocksdb::Iterator> it(
        database.db().NewIterator(rocksdb::ReadOptions(), database.events()));
    it->SeekToLast();
    if (!it->status().ok()) {
      return base::Error::internal("cannot read the end of the event log: " +
                                   it->status().ToString());
    }
    if (it->Valid()) {
      const auto position = keys::decode_u64(it->key().ToStringView());
      if (!position) return mismatch(database, "the last key of the events is not a position");
      auto record = decode_record(it->value().ToStringView());
      if (!record) {
        return mismatch(database, "the last event (position " + std::to_string(*position) +
                                      ") cannot be read: " + record.error().message);
      }
      if (record->position != *position) {
        return mismatch(database, "the event stored at position " + std::to_string(*position) +
                                      " says it is at position " +
                                      std::to_string(record->position));
      }
      end = *position;
      last = std::move(record).value();
    }
  }

  auto counter = read_u64(database, database.meta(), keys::last_position(),
                          "the stored counter (meta last-position)");
  if (!counter) return std::move(counter).error();
  if (!*counter && end != 0) {
    return mismatch(database, "the log ends at position " + std::to_string(end) +
                                  " but the stored counter (meta last-position) is missing");
  }
  if (*counter && **counter != end) {
    return mismatch(database, "the log ends at position " + std::to_string(end) +
                                  " but the stored counter (meta last-position) says " +
                                  std::to_string(**counter));
  }
  if (!last) return end;

  const auto& stream = last->stream;
  auto head = read_u64(database, database.streams(), keys::stream_head(stream),
                       "the head of stream " + stream);
  if (!head) return std::move(head).error();
  if (!*head || **head != last->version) {
    return mismatch(database, "the last event (position " + std::to_string(end) + ") is version " +
                                  std::to_string(last->version) + " of stream " + stream +
                                  ", but the stream's stored head is " +
                                  (*head ? std::to_string(**head) : std::string("missing")));
  }
  auto indexed = read_u64(database, database.streams(), keys::stream_index(stream, last->version),
                          "the index of stream " + stream);
  if (!indexed) return std::move(indexed).error();
  if (!*indexed || **indexed != end) {
    return mismatch(
        database,
        "version " + std::to_string(last->version) + " of stream " + stream + " is indexed at " +
            (*indexed ? "position " + std::to_string(**indexed) : std::string("no position")) +
            ", but the log holds it at position " + std::to_string(end));
  }
  return end;
}

}  // namespace vouch::store
