#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "base/clock.hpp"
#include "base/result.hpp"
#include "events/encoded_event.hpp"
#include "events/owned_resource.hpp"

// The project aggregate: its commands, events, state and the pure rules that
// connect them (decide/evolve). Stream: "project-<id>".
namespace vouch::events {

inline constexpr std::string_view kDefaultFramework = "jest";
inline constexpr double kDefaultThreshold = 80.0;
inline constexpr std::size_t kMaxProjectNameLength = 200;
inline constexpr std::size_t kMaxRepositoryLength = 2048;
// A coverage threshold is a percentage, from 0 to this.
inline constexpr int kMaxThreshold = 100;

// The frameworks generation and runs support; anything else is refused.
const std::vector<std::string>& supported_frameworks();

struct Project {
  std::string id;
  std::string account;
  std::string name;
  std::string repository;
  std::string framework{kDefaultFramework};
  double threshold = kDefaultThreshold;
  base::Millis created = 0;
  base::Millis updated = 0;
};

// --- Commands -------------------------------------------------------------

struct CreateProject {
  std::string id;
  std::string account;
  std::string name;
  std::string repository;
  std::optional<std::string> framework;  // defaults to kDefaultFramework
  std::optional<double> threshold;       // defaults to kDefaultThreshold
  base::Millis at = 0;
};

// What an update changes: only the fields present.
struct ProjectChanges {
  std::optional<std::string> name;
  std::optional<std::string> framework;
  std::optional<double> threshold;

  bool any() const { return name || framework || threshold; }
};

using UpdateProject = Update<ProjectChanges>;
using DeleteProject = Delete<Project>;

// Where an imported snapshot came from.
inline constexpr std::string_view kImportUpload = "upload";    // files in a JSON body
inline constexpr std::string_view kImportArchive = "archive";  // a .tar.gz body
inline constexpr std::string_view kImportGit = "git";          // the project's repository

// What an import stored: a content-addressed snapshot of source files.
struct SnapshotSummary {
  std::string snapshot_id;
  std::int64_t files = 0;
  std::int64_t bytes = 0;
  std::string source;  // kImportUpload, kImportArchive or kImportGit
  std::string ref;     // git: the ref asked for (empty: the remote's HEAD)
  std::string commit;  // git: the commit imported
};

// Records a snapshot, already stored, as the project's latest.
struct ImportProject {
  std::string id;
  std::string account;
  SnapshotSummary snapshot;
  base::Millis at = 0;
};

// --- Events ---------------------------------------------------------------

struct ProjectCreated {
  Project project;
};

using ProjectUpdated = Updated<ProjectChanges>;
using ProjectDeleted = Deleted<Project>;

struct ProjectImported {
  std::string id;
  SnapshotSummary snapshot;
  base::Millis at = 0;
};

using ProjectEvent = std::variant<ProjectCreated, ProjectUpdated, ProjectDeleted, ProjectImported>;

// --- State and rules ------------------------------------------------------

struct ProjectState {
  std::optional<Project> project;  // empty until created
  bool deleted = false;
};

// Each returns the events the command produces (possibly none), or why it is
// refused: kInvalid with field errors, kNotFound for a missing, deleted or
// foreign project, kConflict for a create over an existing id.
base::Result<std::vector<ProjectEvent>> decide(const ProjectState& state,
                                               const CreateProject& command);
base::Result<std::vector<ProjectEvent>> decide(const ProjectState& state,
                                               const UpdateProject& command);
base::Result<std::vector<ProjectEvent>> decide(const ProjectState& state,
                                               const DeleteProject& command);
base::Result<std::vector<ProjectEvent>> decide(const ProjectState& state,
                                               const ImportProject& command);

ProjectState evolve(ProjectState state, const ProjectEvent& event);

// --- Stored form (events/project_codec.cpp) ------------------------------

// Stored form of project events and of the project record. The stored names
// are explicit and versioned; a new shape gets a new name (".v2"), and old
// events keep decoding.
inline constexpr std::string_view kProjectCreatedV1 = "ProjectCreated.v1";
inline constexpr std::string_view kProjectUpdatedV1 = "ProjectUpdated.v1";
inline constexpr std::string_view kProjectDeletedV1 = "ProjectDeleted.v1";
inline constexpr std::string_view kProjectImportedV1 = "ProjectImported.v1";

EncodedEvent encode(const ProjectEvent& event);
bool is_project_event(std::string_view type);
// REQUIRES: is_project_event(type). kInternal when the data is corrupt.
base::Result<ProjectEvent> decode_project_event(std::string_view type, std::string_view data);

// The project record as read models store it.
std::string encode_project(const Project& project);
base::Result<Project> decode_project(std::string_view text);

}  // namespace vouch::events
