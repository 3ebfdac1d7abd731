#include "events/resource_json.hpp"

#include "base/clock.hpp"

namespace vouch::events {

boost::json::object project_resource(const Project& project) {
  return {{"id", project.id},
          {"name", project.name},
          {"repository", project.repository},
          {"config",
           {{"framework", project.framework},
            {"coverage", {{"threshold", json_number(project.threshold)}}}}},
          {"created", base::format_timestamp(project.created)},
          {"updated", base::format_timestamp(project.updated)}};
}

boost::json::object coverage_resource(const Coverage& coverage) {
  return {{"statements", json_number(coverage.statements)},
          {"branches", json_number(coverage.branches)},
          {"functions", json_number(coverage.functions)},
          {"lines", json_number(coverage.lines)}};
}

boost::json::object results_resource(const RunResults& results) {
  return {{"total", results.total},
          {"passed", results.passed},
          {"failed", results.failed},
          {"coverage", coverage_resource(results.coverage)}};
}

boost::json::object environment_resource(const RunEnvironment& environment) {
  boost::json::object dependencies;
  for (const auto& [name, range] : environment.dependencies) dependencies[name] = range;
  return {{"nodeVersion", environment.node_version}, {"dependencies", std::move(dependencies)}};
}

boost::json::object snapshot_resource(const std::string& project_id,
                                      const SnapshotSummary& snapshot, base::Millis at) {
  boost::json::object out{{"projectId", project_id},
                          {"snapshotId", snapshot.snapshot_id},
                          {"files", snapshot.files},
                          {"bytes", snapshot.bytes},
                          {"source", snapshot.source}};
  if (snapshot.source == kImportGit) {
    out["ref"] =
        snapshot.ref.empty() ? boost::json::value(nullptr) : boost::json::value(snapshot.ref);
    out["commit"] = snapshot.commit;
  }
  out["created"] = base::format_timestamp(at);
  return out;
}

boost::json::value run_error_resource(const std::optional<RunError>& error) {
  if (!error) return nullptr;
  return boost::json::object{{"code", error->code}, {"detail", error->detail}};
}

}  // namespace vouch::events
