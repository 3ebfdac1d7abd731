#include "store/log_repair.hpp"

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <map>
#include <memory>

#include "store/key_coding.hpp"
#include "store/record_codec.hpp"

namespace vouch::store {
namespace {

constexpr std::size_t kMaxListed = 20;  // findings of one kind beyond this are counted

void note(std::vector<std::string>& findings, std::size_t& count, std::string finding) {
  if (++count <= kMaxListed) findings.push_back(std::move(finding));
}

void close_list(std::vector<std::string>& findings, std::size_t count) {
  if (count > kMaxListed) {
    findings.push_back("... and " + std::to_string(count - kMaxListed) + " more like these");
  }
}

std::string describe(std::optional<std::uint64_t> value) {
  return value ? std::to_string(*value) : std::string("missing");
}

}  // namespace

base::Result<LogRepairReport> repair_log(Database& database, bool apply) {
  LogRepairReport report;
  auto& db = database.db();
  std::size_t damaged = 0;
  std::size_t derived = 0;
  rocksdb::WriteBatch fixes;
  std::map<std::string, std::uint64_t> heads;  // stream → its last version in the log

  {
    std::unique_ptr<rocksdb::Iterator> it(
        db.NewIterator(rocksdb::ReadOptions(), database.events()));
    std::uint64_t expected = 1;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const auto position = keys::decode_u64(it->key().ToStringView());
      if (!position) {
        note(report.damaged, damaged, "a key of the events is not a position");
        continue;
      }
      if (*position != expected) {
        note(report.damaged, damaged,
             "positions " + std::to_string(expected) + " to " + std::to_string(*position - 1) +
                 " are missing");
      }
      expected = *position + 1;
      report.end = *position;
      auto record = decode_record(it->value().ToStringView());
      if (!record) {
        note(report.damaged, damaged,
             "the event at position " + std::to_string(*position) +
                 " cannot be read: " + record.error().message);
        continue;
      }
      if (record->position != *position) {
        note(report.damaged, damaged,
             "the event stored at position " + std::to_string(*position) + " says position " +
                 std::to_string(record->position));
        continue;
      }
      auto& head = heads[record->stream];
      if (record->version != head + 1) {
        note(report.damaged, damaged,
             "stream " + record->stream + " goes from version " + std::to_string(head) + " to " +
                 std::to_string(record->version) + " at position " + std::to_string(*position));
      }
      head = record->version;
      std::string indexed;
      const auto index_key = keys::stream_index(record->stream, record->version);
      auto status = db.Get(rocksdb::ReadOptions(), database.streams(), index_key, &indexed);
      if (!status.ok() && !status.IsNotFound()) return base::Error::internal(status.ToString());
      const auto at = status.ok() ? keys::decode_u64(indexed) : std::nullopt;
      if (at != *position) {
        note(report.derived, derived,
             "version " + std::to_string(record->version) + " of stream " + record->stream +
                 " is indexed at " + describe(at) + ", the log holds it at " +
                 std::to_string(*position));
        fixes.Put(database.streams(), index_key, keys::encode_u64(*position));
      }
    }
    if (!it->status().ok()) return base::Error::internal(it->status().ToString());
  }

  // Heads and index entries of streams, against the events.
  {
    std::unique_ptr<rocksdb::Iterator> it(
        db.NewIterator(rocksdb::ReadOptions(), database.streams()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const auto key = it->key().ToStringView();
      if (key.empty()) continue;
      if (key.front() == 'h') {
        const std::string stream(key.substr(1));
        const auto stored = keys::decode_u64(it->value().ToStringView());
        const auto found = heads.find(stream);
        if (found == heads.end()) {
          note(report.derived, derived,
               "stream " + stream + " has a stored head (" + describe(stored) +
                   ") but no event in the log");
          fixes.Delete(database.streams(), it->key());
        } else if (stored != found->second) {
          note(report.derived, derived,
               "stream " + stream + " has head " + describe(stored) +
                   ", its last event is version " + std::to_string(found->second));
        }
      } else if (key.front() == 'i') {
        const auto nul = key.find('\0');
        if (nul == std::string_view::npos || key.size() != nul + 9) continue;
        const std::string stream(key.substr(1, nul - 1));
        const auto version = keys::decode_u64(key.substr(nul + 1));
        const auto found = heads.find(stream);
        if (version && (found == heads.end() || *version > found->second)) {
          note(report.derived, derived,
               "version " + std::to_string(*version) + " of stream " + stream +
                   " is indexed but not in the log");
          fixes.Delete(database.streams(), it->key());
        }
      }
    }
    if (!it->status().ok()) return base::Error::internal(it->status().ToString());
  }
  for (const auto& [stream, head] : heads) {
    fixes.Put(database.streams(), keys::stream_head(stream), keys::encode_u64(head));
  }
  std::string stored_counter;
  auto status =
      db.Get(rocksdb::ReadOptions(), database.meta(), keys::last_position(), &stored_counter);
  if (!status.ok() && !status.IsNotFound()) return base::Error::internal(status.ToString());
  const auto counter = status.ok() ? keys::decode_u64(stored_counter) : std::nullopt;
  if (counter.value_or(0) != report.end || (!counter && report.end != 0)) {
    note(report.derived, derived,
         "the stored counter (meta last-position) is " + describe(counter) +
             ", the log ends at position " + std::to_string(report.end));
  }
  fixes.Put(database.meta(), keys::last_position(), keys::encode_u64(report.end));
  close_list(report.damaged, damaged);
  close_list(report.derived, derived);

  if (!apply || !report.damaged.empty() || report.derived.empty()) return report;
  rocksdb::WriteOptions options;
  options.sync = true;
  if (auto written = database.write(options, fixes); !written) return std::move(written).error();
  report.repaired = true;
  return report;
}

}  // namespace vouch::store
