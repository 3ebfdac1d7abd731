#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include "events/json_access.hpp"
#include "events/overloaded.hpp"
#include "events/project.hpp"

namespace vouch::events {
namespace {

namespace ja = json_access;

boost::json::object project_to_json(const Project& project) {
  return {{"id", project.id},
          {"account", project.account},
          {"name", project.name},
          {"repository", project.repository},
          {"framework", project.framework},
          {"threshold", project.threshold},
          {"created", project.created},
          {"updated", project.updated}};
}

Project project_from_json(const boost::json::object& object) {
  return Project{ja::string_at(object, "id"),        ja::string_at(object, "account"),
                 ja::string_at(object, "name"),      ja::string_at(object, "repository"),
                 ja::string_at(object, "framework"), ja::number_at(object, "threshold"),
                 ja::int_at(object, "created"),      ja::int_at(object, "updated")};
}

}  // namespace

EncodedEvent encode(const ProjectEvent& event) {
  return std::visit(Overloaded{
                        [](const ProjectCreated& created) {
                          return ja::encoded(kProjectCreatedV1, project_to_json(created.project));
                        },
                        [](const ProjectUpdated& updated) {
                          boost::json::object data{{"id", updated.id}, {"at", updated.at}};
                          if (updated.name) data["name"] = *updated.name;
                          if (updated.framework) data["framework"] = *updated.framework;
                          if (updated.threshold) data["threshold"] = *updated.threshold;
                          return ja::encoded(kProjectUpdatedV1, data);
                        },
                        [](const ProjectDeleted& deleted) {
                          boost::json::object data{{"id", deleted.id}, {"at", deleted.at}};
                          return ja::encoded(kProjectDeletedV1, data);
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
          return ProjectEvent{ProjectCreated{project_from_json(object)}};
        if (type == kProjectUpdatedV1) {
          return ProjectEvent{ProjectUpdated{
              ja::string_at(object, "id"), ja::optional_string_at(object, "name"),
              ja::optional_string_at(object, "framework"),
              ja::optional_number_at(object, "threshold"), ja::int_at(object, "at")}};
        }
        if (type == kProjectDeletedV1) {
          return ProjectEvent{
              ProjectDeleted{ja::string_at(object, "id"), ja::int_at(object, "at")}};
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
  return boost::json::serialize(project_to_json(project));
}

Result<Project> decode_project(std::string_view text) {
  return ja::read_stored<Project>(text, "project record", project_from_json);
}

}  // namespace vouch::events
