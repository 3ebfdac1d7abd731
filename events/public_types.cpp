#include "events/public_types.hpp"

#include "events/project_codec.hpp"

namespace vouch::events {

std::optional<std::string_view> public_type_of(std::string_view stored_type) {
  if (stored_type == kProjectCreatedV1) return "project.created";
  if (stored_type == kProjectUpdatedV1) return "project.updated";
  if (stored_type == kProjectDeletedV1) return "project.deleted";
  return std::nullopt;
}

}  // namespace vouch::events
