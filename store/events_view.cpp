#include "store/events_view.hpp"

#include <rocksdb/db.h>

#include "events/public_types.hpp"
#include "events/webhook.hpp"
#include "store/index_walk.hpp"
#include "store/key_coding.hpp"

namespace vouch::store {
namespace {

constexpr std::string_view kArea = "events";

// Account names hold no '/', so "<account>/<project>" owners never overlap.
std::string owner(std::string_view account, const std::optional<std::string>& project_id) {
  if (!project_id) return std::string(account);
  return std::string(account) + "/" + *project_id;
}
// The index of an account's events, and of a project's.
std::string index_name(const std::optional<std::string>& project_id) {
  return keys::index_name(kArea, project_id ? "prj" : "acct");
}

}  // namespace

base::Status EventsView::apply(const events::RecordedEvent& record, ViewWriter& writer) {
  auto event = events::to_public_event(record);
  if (!event) return std::move(event).error();
  if (!*event) return base::ok_status();
  const auto& id = record.event.id;
  const auto& account = record.event.account;
  writer.put(keys::record(kArea, id), events::encode_public_event(**event));
  writer.put(keys::record_position(kArea, id), keys::encode_u64(record.position));
  // An index entry is "<type>\0<id>".
  std::string entry = (*event)->type;
  entry.push_back('\0');
  entry += id;
  writer.put(keys::owner_index(index_name(std::nullopt), account, record.position), entry);
  if (!(*event)->project_id.empty()) {
    writer.put(keys::owner_index(index_name((*event)->project_id),
                                 owner(account, (*event)->project_id), record.position),
               entry);
  }
  return base::ok_status();
}

base::Result<Page<std::string>> EventsView::list(const std::string& account, const Filter& filter,
                                                 std::size_t limit) const {
  const auto index = index_name(filter.project_id);
  const std::string index_owner = owner(account, filter.project_id);
  const std::string prefix = keys::owner_index_prefix(index, index_owner);
  std::string start = prefix;
  if (filter.starting_after) {
    // The cursor is a position in the log: it need not be an event of the project.
    std::string position;
    const auto status =
        database_.db().Get(rocksdb::ReadOptions(), database_.views(),
                           keys::record_position(kArea, *filter.starting_after), &position);
    std::string owner_entry;
    const auto decoded = keys::decode_u64(position);
    if (!status.ok() || !decoded ||
        !database_.db()
             .Get(rocksdb::ReadOptions(), database_.views(),
                  keys::owner_index(index_name(std::nullopt), account, *decoded), &owner_entry)
             .ok()) {
      return base::Error::invalid("startingAfter names no event of this account",
                                  {{"startingAfter", "no event " + *filter.starting_after}});
    }
    start = keys::owner_index(index, index_owner, *decoded + 1);
  }
  std::string_view entry_type;  // of the entry whose record the walk reads next
  return read_page<std::string>(
      database_, prefix, start,
      [&](std::string_view entry) {
        const auto separator = entry.find('\0');
        entry_type = entry.substr(0, separator);
        return keys::record(kArea, entry.substr(separator + 1));
      },
      limit,
      [&](std::string_view envelope) -> base::Result<std::optional<std::string>> {
        if (filter.type && !events::pattern_matches(*filter.type, entry_type)) {
          return std::optional<std::string>();
        }
        return std::optional<std::string>(envelope);
      });
}

}  // namespace vouch::store
