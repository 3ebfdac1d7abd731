#include "store/projects_view.hpp"

#include <rocksdb/db.h>

#include "events/overloaded.hpp"
#include "events/project.hpp"
#include "store/index_walk.hpp"
#include "store/key_coding.hpp"

namespace vouch::store {
namespace {

std::string record_key(std::string_view id) { return "projects/id/" + std::string(id); }
std::string position_key(std::string_view id) { return "projects/pos/" + std::string(id); }
std::string snapshot_key(std::string_view id) { return "projects/snapshot/" + std::string(id); }
// Every snapshot imported into a project: "projects/snapshots/<project>/<snapshot>".
std::string imported_key(std::string_view id, std::string_view snapshot) {
  return "projects/snapshots/" + std::string(id) + "/" + std::string(snapshot);
}
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
            writer.erase(snapshot_key(deleted.id));
          },
          [&](const events::ProjectImported& imported) {
            writer.put(snapshot_key(imported.id), imported.snapshot.snapshot_id);
            writer.put(imported_key(imported.id, imported.snapshot.snapshot_id), "");
          },
      },
      *decoded);
  return events::ok_status();
}

ProjectsView::ProjectsView(Database& database)
    : database_(database),
      records_(database, {"project", record_key, position_key, events::decode_project,
                          [](const events::Project& record) -> const std::string& {
                            return record.account;
                          }}) {}

events::Result<std::optional<events::Project>> ProjectsView::find(const std::string& account,
                                                                  const std::string& id) const {
  return records_.find(account, id);
}

events::Result<std::optional<std::string>> ProjectsView::latest_snapshot(
    const std::string& id) const {
  return database_.read_view(snapshot_key(id));
}

events::Result<bool> ProjectsView::has_snapshot(const std::string& id,
                                                const std::string& snapshot) const {
  auto found = database_.read_view(imported_key(id, snapshot));
  if (!found) return std::move(found).error();
  return found->has_value();
}

events::Result<Page<events::Project>> ProjectsView::list(
    const std::string& account, const std::optional<std::string>& starting_after,
    std::size_t limit) const {
  return records_.list(account,
                       {account_prefix(account),
                        [&](std::uint64_t position) { return account_key(account, position); },
                        "of this account",
                        {}},
                       starting_after, limit);
}

}  // namespace vouch::store
