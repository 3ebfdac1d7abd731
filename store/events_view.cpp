#include "store/events_view.hpp"

#include <rocksdb/db.h>

#include "events/public_types.hpp"
#include "store/index_walk.hpp"
#include "store/key_coding.hpp"

namespace vouch::store {
namespace {

std::string record_key(std::string_view id) { return "events/id/" + std::string(id); }
std::string position_key(std::string_view id) { return "events/pos/" + std::string(id); }
std::string account_prefix(std::string_view account) {
  return keys::owner_index_prefix("events/acct", account);
}
std::string account_key(std::string_view account, std::uint64_t position) {
  return keys::owner_index("events/acct", account, position);
}

}  // namespace

events::Status EventsView::apply(const events::RecordedEvent& record, ViewWriter& writer) {
  auto envelope = events::public_envelope(record);
  if (!envelope) return events::ok_status();
  const auto& id = record.event.id;
  writer.put(record_key(id), *envelope);
  writer.put(position_key(id), keys::encode_u64(record.position));
  std::string entry(*events::public_type_of(record.event.type));
  entry.push_back('\0');
  entry += id;
  writer.put(account_key(record.event.account, record.position), entry);
  return events::ok_status();
}

events::Result<Page<std::string>> EventsView::list(const std::string& account,
                                                   const std::optional<std::string>& starting_after,
                                                   const std::optional<std::string>& type,
                                                   std::size_t limit) const {
  const std::string prefix = account_prefix(account);
  std::string start = prefix;
  if (starting_after) {
    std::string position;
    const auto status = database_.db().Get(rocksdb::ReadOptions(), database_.views(),
                                           position_key(*starting_after), &position);
    std::string owner_entry;
    const auto decoded = keys::decode_u64(position);
    if (!status.ok() || !decoded ||
        !database_.db()
             .Get(rocksdb::ReadOptions(), database_.views(), account_key(account, *decoded),
                  &owner_entry)
             .ok()) {
      return events::Error::invalid("startingAfter names no event of this account",
                                    {{"startingAfter", "no event " + *starting_after}});
    }
    start = account_key(account, *decoded + 1);
  }
  std::string_view entry_type;  // of the entry whose record the walk reads next
  return read_page<std::string>(
      database_, prefix, start,
      [&](std::string_view entry) {
        // An index entry is "<type>\0<id>".
        const auto separator = entry.find('\0');
        entry_type = entry.substr(0, separator);
        return record_key(entry.substr(separator + 1));
      },
      limit,
      [&](std::string_view envelope) -> events::Result<std::optional<std::string>> {
        if (type && entry_type != *type) return std::optional<std::string>();
        return std::optional<std::string>(envelope);
      });
}

}  // namespace vouch::store
