#include "store/projects_view.hpp"

#include <rocksdb/db.h>

#include "base/overloaded.hpp"
#include "events/project.hpp"
#include "store/index_walk.hpp"
#include "store/key_coding.hpp"

namespace vouch::store {

base::Status ProjectsView::apply(const events::RecordedEvent& record, ViewWriter& writer) {
  if (!events::is_project_event(record.event.type)) return base::ok_status();
  auto decoded = events::decode_project_event(record.event.type, record.event.data);
  if (!decoded) return std::move(decoded).error();

  std::visit(
      base::Overloaded{
          [&](const events::ProjectCreated& created) {
            const auto& project = created.project;
            records_.insert(writer, project.id, events::encode_project(project), record.position,
                            "acct", project.account);
          },
          [&](const events::ProjectUpdated& updated) {
            auto state =
                events::evolve(events::ProjectState{records_.load(writer, updated.id), false},
                               events::ProjectEvent{updated});
            if (state.project) {
              records_.put(writer, updated.id, events::encode_project(*state.project));
            }
          },
          [&](const events::ProjectDeleted& deleted) {
            records_.erase(writer, deleted.id, "acct");
            writer.erase(keys::project_snapshot(deleted.id));
          },
          [&](const events::ProjectImported& imported) {
            writer.put(keys::project_snapshot(imported.id), imported.snapshot.snapshot_id);
            writer.put(keys::project_imported_snapshot(imported.id, imported.snapshot.snapshot_id),
                       "");
          },
      },
      *decoded);
  return base::ok_status();
}

ProjectsView::ProjectsView(Database& database, std::size_t kept_bytes)
    : OwnedView(database, "projects", "project", events::decode_project, kept_bytes) {}

base::Result<std::optional<std::string>> ProjectsView::latest_snapshot(
    const std::string& id) const {
  return database_.read_view(keys::project_snapshot(id));
}

base::Result<bool> ProjectsView::has_snapshot(const std::string& id,
                                              const std::string& snapshot) const {
  auto found = database_.read_view(keys::project_imported_snapshot(id, snapshot));
  if (!found) return std::move(found).error();
  return found->has_value();
}

base::Result<Page<events::Project>> ProjectsView::list(
    const std::string& account, const std::optional<std::string>& starting_after,
    std::size_t limit) const {
  return records_.list(account, records_.index("acct", account, "of this account"), starting_after,
                       limit);
}

}  // namespace vouch::store
