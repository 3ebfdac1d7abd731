#include "events/public_types.hpp"

#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>

#include "base/clock.hpp"
#include "base/overloaded.hpp"
#include "events/project.hpp"
#include "events/resource_json.hpp"
#include "events/run.hpp"

namespace vouch::events {
namespace {

// What changed, in the project's shape.
boost::json::object project_updated_data(const ProjectUpdated& updated) {
  const ProjectChanges& changes = updated.changes;
  boost::json::object data{{"id", updated.id}};
  if (changes.name) data["name"] = *changes.name;
  boost::json::object config;
  if (changes.framework) config["framework"] = *changes.framework;
  if (changes.threshold) {
    config["coverage"] = boost::json::object{{"threshold", json_number(*changes.threshold)}};
  }
  if (!config.empty()) data["config"] = std::move(config);
  data["updated"] = base::format_timestamp(updated.at);
  return data;
}

boost::json::object project_data(const ProjectEvent& event, std::string& project_id) {
  return std::visit(base::Overloaded{
                        [&](const ProjectCreated& created) {
                          project_id = created.project.id;
                          return project_resource(created.project);
                        },
                        [&](const ProjectUpdated& updated) {
                          project_id = updated.id;
                          return project_updated_data(updated);
                        },
                        [&](const ProjectDeleted& deleted) {
                          project_id = deleted.id;
                          return boost::json::object{
                              {"id", deleted.id}, {"deleted", base::format_timestamp(deleted.at)}};
                        },
                        [&](const ProjectImported& imported) {
                          project_id = imported.id;
                          // The import's answer without its `skipped` list.
                          return snapshot_resource(imported.id, imported.snapshot, imported.at);
                        },
                    },
                    event);
}

boost::json::value optional_results(const std::optional<RunResults>& results) {
  if (!results) return nullptr;
  return results_resource(*results);
}

boost::json::object run_data(const RunEvent& event, std::string& project_id) {
  return std::visit(
      base::Overloaded{
          [&](const RunStarted& started) {
            const auto& run = started.run;
            project_id = run.project_id;
            return boost::json::object{{"runId", run.id},
                                       {"testId", run.test_id},
                                       {"projectId", run.project_id},
                                       {"status", kRunRunning},
                                       {"environment", environment_resource(run.environment)},
                                       {"created", base::format_timestamp(run.created)}};
          },
          [&](const RunCompleted& completed) {
            project_id = completed.project_id;
            return boost::json::object{{"runId", completed.run_id},
                                       {"testId", completed.test_id},
                                       {"projectId", completed.project_id},
                                       {"status", completed.outcome},
                                       {"duration", completed.duration},
                                       {"results", results_resource(completed.results)},
                                       {"completed", base::format_timestamp(completed.at)}};
          },
          [&](const RunFailed& failed) {
            project_id = failed.project_id;
            return boost::json::object{
                {"runId", failed.run_id},
                {"testId", failed.test_id},
                {"projectId", failed.project_id},
                {"outcome", failed.outcome},
                {"reason", failed.reason},
                {"detail", failed.detail},
                {"failures", boost::json::array(failed.failures.begin(), failed.failures.end())},
                {"error", run_error_resource(failed.error)},
                {"results", optional_results(failed.results)},
                {"duration", failed.duration},
                {"completed", base::format_timestamp(failed.at)}};
          },
          [&](const CoverageUpdated& updated) {
            project_id = updated.project_id;
            boost::json::value previous = nullptr;
            if (updated.previous) previous = coverage_resource(*updated.previous);
            return boost::json::object{{"projectId", updated.project_id},
                                       {"testId", updated.test_id},
                                       {"runId", updated.run_id},
                                       {"previous", std::move(previous)},
                                       {"current", coverage_resource(updated.current)},
                                       {"updated", base::format_timestamp(updated.at)}};
          },
      },
      event);
}

}  // namespace

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

base::Result<std::optional<PublicEvent>> to_public_event(const RecordedEvent& record) {
  const auto& stored = record.event;
  const auto type = public_type_of(stored.type);
  if (!type) return std::optional<PublicEvent>();
  PublicEvent out;
  out.id = stored.id;
  out.type = std::string(*type);
  out.created = stored.created;
  if (is_project_event(stored.type)) {
    auto decoded = decode_project_event(stored.type, stored.data);
    if (!decoded) return std::move(decoded).error();
    out.data = project_data(*decoded, out.project_id);
  } else {
    auto decoded = decode_run_event(stored.type, stored.data, stored.account);
    if (!decoded) return std::move(decoded).error();
    out.data = run_data(*decoded, out.project_id);
  }
  return std::optional<PublicEvent>(std::move(out));
}

std::string encode_public_event(const PublicEvent& event) {
  return boost::json::serialize(
      boost::json::object{{"id", event.id},
                          {"type", event.type},
                          {"version", event.version},
                          {"created", base::format_timestamp(event.created)},
                          {"data", event.data}});
}

base::Result<std::string> public_envelope(const RecordedEvent& record) {
  auto event = to_public_event(record);
  if (!event) return std::move(event).error();
  if (!*event) return base::Error::internal("not a public event: " + record.event.type);
  return encode_public_event(**event);
}

}  // namespace vouch::events
