#include "events/public_types.hpp"

#include "events/project_codec.hpp"
#include "events/test_run.hpp"

namespace vouch::events {

std::optional<std::string_view> public_type_of(std::string_view stored_type) {
  if (stored_type == kProjectCreatedV1) return "project.created";
  if (stored_type == kProjectUpdatedV1) return "project.updated";
  if (stored_type == kProjectDeletedV1) return "project.deleted";
  if (stored_type == kTestRunStartedV1) return "test.started";
  if (stored_type == kTestRunCompletedV1) return "test.completed";
  if (stored_type == kTestRunFailedV1) return "test.failed";
  if (stored_type == kTestCoverageUpdatedV1) return "test.coverage.updated";
  return std::nullopt;
}

}  // namespace vouch::events
