#include "store/projects_view.hpp"

#include <rocksdb/db.h>

#include "events/overloaded.hpp"
#include "events/project.hpp"
#include "store/index_walk.hpp"
#include "store/key_coding.hpp"

namespace vouch::store {
namespace {

std::string snapshot_key(std::string_view id) { return "projects/snapshot/" + std::string(id); }
// Every snapshot imported into a project: "projects/snapshots/<project>/<snapshot>".
std::string imported_key(std::string_view id, std::string_view snapshot) {
  return "projects/snapshots/" + std::string(id) + "/" + std::string(snapshot);
}

}  // namespace

events::Status ProjectsView::apply(const events::RecordedEvent& record, ViewWriter& writer) {
  if (!events::is_project_event(record.event.type)) return events::ok_status();
  auto decoded = events::decode_project_event(record.event.type, record.event.data);
  if (!decoded) return std::move(decoded).error();

  std::visit(events::Overloaded{
                 [&](const events::ProjectCreated& created) {
                   const auto& project = created.project;
                   records_.insert(writer, project.id, events::encode_project(project),
                                   record.position, "acct", project.account);
                 },
                 [&](const events::ProjectUpdated& updated) {
                   auto state = events::evolve(
                       events::ProjectState{records_.load(writer, updated.id), false},
                       events::ProjectEvent{updated});
                   if (state.project) {
                     records_.put(writer, updated.id, events::encode_project(*state.project));
                   }
                 },
                 [&](const events::ProjectDeleted& deleted) {
                   records_.erase(writer, deleted.id, "acct");
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

ProjectsView::ProjectsView(Database& database, std::size_t kept_bytes)
    : OwnedView(database, "projects", "project", events::decode_project, kept_bytes) {}

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
  return records_.list(account, records_.index("acct", account, "of this account"), starting_after,
                       limit);
}

}  // namespace vouch::store
