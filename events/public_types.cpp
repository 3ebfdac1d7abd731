#include "events/public_types.hpp"

#include <boost/json/serialize.hpp>

#include "events/clock.hpp"
#include "events/project_codec.hpp"
#include "events/test_run.hpp"

namespace vouch::events {

std::optional<std::string_view> public_type_of(std::string_view stored_type) {
  if (stored_type == kProjectCreatedV1) return "project.created";
  if (stored_type == kProjectUpdatedV1) return "project.updated";
  if (stored_type == kProjectDeletedV1) return "project.deleted";
  if (stored_type == kProjectImportedV1) return "project.imported";
  if (stored_type == kTestRunStartedV1) return "test.started";
  if (stored_type == kTestRunCompletedV1) return "test.completed";
  if (stored_type == kTestRunFailedV1) return "test.failed";
  if (stored_type == kTestCoverageUpdatedV1) return "test.coverage.updated";
  return std::nullopt;
}

std::optional<std::string> public_envelope(const RecordedEvent& record) {
  const auto type = public_type_of(record.event.type);
  if (!type) return std::nullopt;
  boost::json::object envelope{{"id", record.event.id},
                               {"type", *type},
                               {"created", format_timestamp(record.event.created)}};
  // The stored data is already JSON: splice it in rather than parse and re-encode it.
  std::string out = boost::json::serialize(envelope);
  out.pop_back();
  out += ",\"data\":";
  out += record.event.data;
  out += '}';
  return out;
}

}  // namespace vouch::events
