#include "http/generated_test_json.hpp"

#include <boost/json/parse.hpp>

#include "base/clock.hpp"
#include "events/resource_json.hpp"
#include "http/reply.hpp"

namespace vouch::http {
namespace {

// A test recorded before generation took an environment names no Node.js
// version: null.
boost::json::object environment_json(const events::RunEnvironment& environment) {
  auto object = events::environment_resource(environment);
  if (environment.node_version.empty()) object["nodeVersion"] = nullptr;
  return object;
}

}  // namespace

boost::json::object to_json(const events::GeneratedTest& test,
                            const actors::GenerationProgress* progress) {
  boost::json::array files;
  for (const auto& file : test.files) {
    files.push_back(boost::json::object{{"path", file.path}, {"content", file.content}});
  }
  auto object = boost::json::object{
      {"testId", test.id},
      {"projectId", test.project_id},
      {"status", test.status},
      {"framework", test.framework},
      {"threshold", json_number(test.threshold)},
      {"files", std::move(files)},
      {"summary", boost::json::parse(test.summary)},
      {"environment", environment_json(test.environment)},
      {"lastRunId", test.last_run_id.empty() ? boost::json::value(nullptr)
                                             : boost::json::value(test.last_run_id)},
      {"created", base::format_timestamp(test.created)},
      {"updated", base::format_timestamp(test.updated)}};
  if (test.status == events::kTestGenerating) {
    const bool known = progress && !progress->phase.empty();
    object["progress"] = {{"phase", known ? progress->phase : "queued"},
                          {"filesDone", known ? progress->files_done : 0},
                          {"filesTotal", known ? progress->files_total : 0},
                          {"testsKept", known ? progress->tests_kept : 0}};
  }
  if (test.error) {
    object["error"] = {{"code", test.error->code}, {"detail", test.error->detail}};
  }
  return object;
}

boost::json::object to_json(const events::TestRun& run) {
  const bool done = run.status == events::kRunCompleted;
  boost::json::value results = nullptr;
  if (run.results) results = events::results_resource(*run.results);
  return {{"runId", run.id},
          {"testId", run.test_id},
          {"projectId", run.project_id},
          {"status", run.status},
          {"results", std::move(results)},
          {"outcome", done ? boost::json::value(run.outcome) : boost::json::value(nullptr)},
          {"duration", done ? boost::json::value(run.duration) : boost::json::value(nullptr)},
          {"error", events::run_error_resource(run.error)},
          {"failures", boost::json::array(run.failures.begin(), run.failures.end())},
          {"environment", environment_json(run.environment)},
          {"created", base::format_timestamp(run.created)},
          {"completed", done ? boost::json::value(base::format_timestamp(run.completed))
                             : boost::json::value(nullptr)}};
}

}  // namespace vouch::http
