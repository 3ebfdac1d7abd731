#include "store/projects_view.hpp"

#include <rocksdb/db.h>

#include "events/overloaded.hpp"
#include "events/project_codec.hpp"
#include "store/index_walk.hpp"
#include "store/key_coding.hpp"

namespace vouch::store {
namespace {

std::string record_key(std::string_view id) { return "projects/id/" + std::string(id); }
std::string position_key(std::string_view id) { return "projects/pos/" + std::string(id); }
std::string account_prefix(std::string_view account) {
  return keys::owner_index_prefix("projects/acct", account);
}
std::string account_key(std::string_view account, std::uint64_t position) {
  return keys::owner_index("projects/acct", account, position);
}

}  // namespace

events::Status ProjectsView::apply(const events::RecordedEvent& record, ViewWriter& writer) {
  if (!events::is_project_event(record.event.type)) return events::ok_status();
  auto decoded = events::decode_project_event(record.event.type, record.event.data);
  if (!decoded) return std::move(decoded).error();

  const auto load = [&](const std::string& id) -> std::optional<events::Project> {
    auto text = writer.get(record_key(id));
    if (!text) return std::nullopt;
    auto project = events::decode_project(*text);
    if (!project) return std::nullopt;
    return std::move(project).value();
  };

  std::visit(
      events::Overloaded{
          [&](const events::ProjectCreated& created) {
            const auto& project = created.project;
            writer.put(record_key(project.id), events::encode_project(project));
            writer.put(position_key(project.id), keys::encode_u64(record.position));
            writer.put(account_key(project.account, record.position), project.id);
          },
          [&](const events::ProjectUpdated& updated) {
            auto state = events::evolve(events::ProjectState{load(updated.id), false},
                                        events::ProjectEvent{updated});
            if (state.project) {
              writer.put(record_key(updated.id), events::encode_project(*state.project));
            }
          },
          [&](const events::ProjectDeleted& deleted) {
            auto project = load(deleted.id);
            auto position = writer.get(position_key(deleted.id));
            if (project && position) {
              writer.erase(account_key(project->account, keys::decode_u64(*position).value_or(0)));
            }
            writer.erase(record_key(deleted.id));
            writer.erase(position_key(deleted.id));
          },
      },
      *decoded);
  return events::ok_status();
}

events::Result<std::optional<events::Project>> ProjectsView::find(const std::string& account,
                                                                  const std::string& id) const {
  std::string text;
  auto status =
      database_.db().Get(rocksdb::ReadOptions(), database_.views(), record_key(id), &text);
  if (status.IsNotFound()) return std::optional<events::Project>{};
  if (!status.ok()) return events::Error::internal(status.ToString());
  auto project = events::decode_project(text);
  if (!project) return std::move(project).error();
  if (project->account != account) return std::optional<events::Project>{};
  return std::optional<events::Project>{std::move(project).value()};
}

events::Result<Page<events::Project>> ProjectsView::list(
    const std::string& account, const std::optional<std::string>& starting_after,
    std::size_t limit) const {
  const std::string prefix = account_prefix(account);
  std::string start = prefix;
  if (starting_after) {
    auto cursor = find(account, *starting_after);
    if (!cursor) return std::move(cursor).error();
    std::string position;
    if (!*cursor || !database_.db()
                         .Get(rocksdb::ReadOptions(), database_.views(),
                              position_key(*starting_after), &position)
                         .ok()) {
      return events::Error::invalid("startingAfter names no project of this account",
                                    {{"startingAfter", "no project " + *starting_after}});
    }
    start = account_key(account, keys::decode_u64(position).value_or(0) + 1);
  }

  return read_page<events::Project>(
      database_, prefix, start, [](std::string_view id) { return record_key(id); }, limit,
      [&](std::string_view text) -> events::Result<std::optional<events::Project>> {
        auto project = events::decode_project(text);
        if (!project) return std::move(project).error();
        return std::optional<events::Project>(std::move(project).value());
      });
}

}  // namespace vouch::store
