#pragma once

#include <string>
#include <string_view>

#include "events/encoded_event.hpp"
#include "events/project.hpp"
#include "events/result.hpp"

// Stored form of project events and of the project record. The stored names
// are explicit and versioned; a new shape gets a new name (".v2"), and old
// events keep decoding.
namespace vouch::events {

inline constexpr std::string_view kProjectCreatedV1 = "ProjectCreated.v1";
inline constexpr std::string_view kProjectUpdatedV1 = "ProjectUpdated.v1";
inline constexpr std::string_view kProjectDeletedV1 = "ProjectDeleted.v1";
inline constexpr std::string_view kProjectImportedV1 = "ProjectImported.v1";

EncodedEvent encode(const ProjectEvent& event);
bool is_project_event(std::string_view type);
// REQUIRES: is_project_event(type). kInternal when the data is corrupt.
Result<ProjectEvent> decode_project_event(std::string_view type, std::string_view data);

// The project record as read models store it.
std::string encode_project(const Project& project);
Result<Project> decode_project(std::string_view text);

}  // namespace vouch::events
