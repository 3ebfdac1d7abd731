#include "events/json_access.hpp"
#include "events/json_fields.hpp"
#include "events/owned_resource_codec.hpp"
#include "events/project.hpp"
#include "events/stored_events.hpp"

namespace vouch::events {
namespace {

namespace ja = json_access;

// The project record, and the data of ProjectCreated.
constexpr auto kProjectFields = std::make_tuple(
    ja::field("id", &Project::id), ja::field("account", &Project::account),
    ja::field("name", &Project::name), ja::field("repository", &Project::repository),
    ja::field("framework", &Project::framework), ja::field("threshold", &Project::threshold),
    ja::field("created", &Project::created), ja::field("updated", &Project::updated));

constexpr auto kSnapshotFields = std::make_tuple(
    ja::field("snapshotId", &SnapshotSummary::snapshot_id),
    ja::field("files", &SnapshotSummary::files), ja::field("bytes", &SnapshotSummary::bytes),
    ja::field("source", &SnapshotSummary::source), ja::field("ref", &SnapshotSummary::ref),
    ja::field("commit", &SnapshotSummary::commit));

// What ProjectUpdated changed: only the fields present are stored.
constexpr auto kProjectChangesFields = std::make_tuple(
    ja::field("name", &ProjectChanges::name), ja::field("framework", &ProjectChanges::framework),
    ja::field("threshold", &ProjectChanges::threshold));

// How each project event is stored; an update names only what changed.
constexpr auto kProjectEvents = std::make_tuple(
    ja::stored_event<ProjectCreated>(
        kProjectCreatedV1,
        std::make_tuple(ja::inline_fields(&ProjectCreated::project, kProjectFields))),
    ja::stored_event<ProjectUpdated>(kProjectUpdatedV1,
                                     ja::updated_fields<ProjectChanges>(kProjectChangesFields)),
    ja::stored_event<ProjectDeleted>(kProjectDeletedV1, ja::deleted_fields<Project>()),
    ja::stored_event<ProjectImported>(
        kProjectImportedV1,
        std::make_tuple(ja::field("id", &ProjectImported::id),
                        ja::inline_fields(&ProjectImported::snapshot, kSnapshotFields),
                        ja::field("at", &ProjectImported::at))));

}  // namespace

EncodedEvent encode(const ProjectEvent& event) { return ja::encode_event(event, kProjectEvents); }

bool is_project_event(std::string_view type) { return ja::is_stored_event(type, kProjectEvents); }

base::Result<ProjectEvent> decode_project_event(std::string_view type, std::string_view data) {
  return ja::decode_event<ProjectEvent>(type, data, "a project event", kProjectEvents);
}

std::string encode_project(const Project& project) {
  return ja::serialize(project, kProjectFields);
}

base::Result<Project> decode_project(std::string_view text) {
  return ja::parse<Project>(text, "project record", kProjectFields);
}

}  // namespace vouch::events
