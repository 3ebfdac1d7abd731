#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include "events/json_access.hpp"
#include "events/json_fields.hpp"
#include "events/overloaded.hpp"
#include "events/project.hpp"

namespace vouch::events {
namespace {

namespace ja = json_access;

// The project record, and the project of ProjectCreated.
constexpr auto kProjectFields = std::make_tuple(
    ja::field("id", &Project::id), ja::field("account", &Project::account),
    ja::field("name", &Project::name), ja::field("repository", &Project::repository),
    ja::field("framework", &Project::framework), ja::field("threshold", &Project::threshold),
    ja::field("created", &Project::created), ja::field("updated", &Project::updated));

// An update names only what changed.
constexpr auto kProjectUpdatedFields = std::make_tuple(
    ja::field("id", &ProjectUpdated::id), ja::field("at", &ProjectUpdated::at),
    ja::field("name", &ProjectUpdated::name), ja::field("framework", &ProjectUpdated::framework),
    ja::field("threshold", &ProjectUpdated::threshold));
constexpr auto kProjectDeletedFields =
    std::make_tuple(ja::field("id", &ProjectDeleted::id), ja::field("at", &ProjectDeleted::at));

}  // namespace

EncodedEvent encode(const ProjectEvent& event) {
  return std::visit(
      Overloaded{
          [](const ProjectCreated& created) {
            return ja::encoded(kProjectCreatedV1, ja::to_json(created.project, kProjectFields));
          },
          [](const ProjectUpdated& updated) {
            return ja::encoded(kProjectUpdatedV1, ja::to_json(updated, kProjectUpdatedFields));
          },
          [](const ProjectDeleted& deleted) {
            return ja::encoded(kProjectDeletedV1, ja::to_json(deleted, kProjectDeletedFields));
          },
          [](const ProjectImported& imported) {
            const auto& snapshot = imported.snapshot;
            boost::json::object data{
                {"id", imported.id},         {"snapshotId", snapshot.snapshot_id},
                {"files", snapshot.files},   {"bytes", snapshot.bytes},
                {"source", snapshot.source}, {"ref", snapshot.ref},
                {"commit", snapshot.commit}, {"at", imported.at}};
            return ja::encoded(kProjectImportedV1, data);
          },
      },
      event);
}

bool is_project_event(std::string_view type) {
  return type == kProjectCreatedV1 || type == kProjectUpdatedV1 || type == kProjectDeletedV1 ||
         type == kProjectImportedV1;
}

Result<ProjectEvent> decode_project_event(std::string_view type, std::string_view data) {
  return ja::read_stored<ProjectEvent>(
      data, std::string(type) + " event",
      [&](const boost::json::object& object) -> Result<ProjectEvent> {
        if (type == kProjectCreatedV1)
          return ProjectEvent{ProjectCreated{ja::from_json<Project>(object, kProjectFields)}};
        if (type == kProjectUpdatedV1) {
          return ProjectEvent{ja::from_json<ProjectUpdated>(object, kProjectUpdatedFields)};
        }
        if (type == kProjectDeletedV1) {
          return ProjectEvent{ja::from_json<ProjectDeleted>(object, kProjectDeletedFields)};
        }
        if (type == kProjectImportedV1) {
          SnapshotSummary snapshot{
              ja::string_at(object, "snapshotId"), ja::int_at(object, "files"),
              ja::int_at(object, "bytes"),         ja::string_at(object, "source"),
              ja::string_at(object, "ref"),        ja::string_at(object, "commit")};
          return ProjectEvent{ProjectImported{ja::string_at(object, "id"), std::move(snapshot),
                                              ja::int_at(object, "at")}};
        }
        return Error::internal("not a project event: " + std::string(type));
      });
}

std::string encode_project(const Project& project) {
  return ja::serialize(project, kProjectFields);
}

Result<Project> decode_project(std::string_view text) {
  return ja::parse<Project>(text, "project record", kProjectFields);
}

}  // namespace vouch::events
