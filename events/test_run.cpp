#include "events/test_run.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <cstdio>

#include "events/json_access.hpp"
#include "events/overloaded.hpp"

namespace vouch::events {
namespace {

namespace ja = json_access;

bool meets(const Coverage& coverage, double threshold) {
  return coverage.statements >= threshold && coverage.branches >= threshold &&
         coverage.functions >= threshold && coverage.lines >= threshold;
}

// "80", "72.5": a percentage as people write it.
std::string percent_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  std::string out(text);
  out.erase(out.find_last_not_of('0') + 1);
  if (out.back() == '.') out.pop_back();
  return out;
}

std::string below_threshold_detail(const Coverage& coverage, double threshold) {
  std::string detail =
      "coverage under the project's threshold of " + percent_text(threshold) + "%:";
  const std::pair<const char*, double> figures[] = {{"statements", coverage.statements},
                                                    {"branches", coverage.branches},
                                                    {"functions", coverage.functions},
                                                    {"lines", coverage.lines}};
  const char* separator = " ";
  for (const auto& [name, value] : figures) {
    if (value >= threshold) continue;
    detail += separator;
    detail += name;
    detail += " " + percent_text(value) + "%";
    separator = ", ";
  }
  return detail;
}

// --- JSON --------------------------------------------------------------------

boost::json::object coverage_to_json(const Coverage& coverage) {
  return {{"statements", coverage.statements},
          {"branches", coverage.branches},
          {"functions", coverage.functions},
          {"lines", coverage.lines}};
}

Coverage coverage_from_json(const boost::json::object& object) {
  return {ja::number_at(object, "statements"), ja::number_at(object, "branches"),
          ja::number_at(object, "functions"), ja::number_at(object, "lines")};
}

boost::json::value optional_coverage_to_json(const std::optional<Coverage>& coverage) {
  if (!coverage) return nullptr;
  return coverage_to_json(*coverage);
}

std::optional<Coverage> optional_coverage_from_json(const boost::json::object& object,
                                                    std::string_view key) {
  const auto* value = object.if_contains(key);
  if (!value || value->is_null()) return std::nullopt;
  return coverage_from_json(ja::as_object(*value, key));
}

boost::json::value results_to_json(const std::optional<RunResults>& results) {
  if (!results) return nullptr;
  return boost::json::object{{"total", results->total},
                             {"passed", results->passed},
                             {"failed", results->failed},
                             {"coverage", coverage_to_json(results->coverage)}};
}

std::optional<RunResults> results_from_json(const boost::json::object& object) {
  const auto* value = object.if_contains("results");
  if (!value || value->is_null()) return std::nullopt;
  const auto& results = ja::as_object(*value, "results");
  const auto* coverage = results.if_contains("coverage");
  if (!coverage) throw ja::CorruptRecord{"results without coverage"};
  return RunResults{ja::int_at(results, "total"), ja::int_at(results, "passed"),
                    ja::int_at(results, "failed"),
                    coverage_from_json(ja::as_object(*coverage, "coverage"))};
}

boost::json::value error_to_json(const std::optional<RunError>& error) {
  if (!error) return nullptr;
  return boost::json::object{{"code", error->code}, {"detail", error->detail}};
}

std::optional<RunError> error_from_json(const boost::json::object& object) {
  const auto* value = object.if_contains("error");
  if (!value || value->is_null()) return std::nullopt;
  const auto& error = ja::as_object(*value, "error");
  return RunError{ja::string_at(error, "code"), ja::string_at(error, "detail")};
}

RunEnvironment environment_in(const boost::json::object& object) {
  const auto* value = object.if_contains("environment");
  if (!value) throw ja::CorruptRecord{"missing environment"};
  return environment_from_json(*value);
}

std::string timestamp_of(Millis at) { return format_timestamp(at); }

Millis millis_at(const boost::json::object& object, std::string_view key) {
  auto parsed = parse_timestamp(ja::string_at(object, key));
  if (!parsed) throw ja::CorruptRecord{std::string(key) + " is not a timestamp"};
  return *parsed;
}

}  // namespace

// --- Rules -------------------------------------------------------------------

Result<std::vector<RunEvent>> finish_run(const TestRun& run, const RunReport& report,
                                         double threshold,
                                         const std::optional<Coverage>& project_coverage,
                                         Millis at) {
  if (run.status != kRunRunning) return Error::conflict("run " + run.id + " has already ended");
  std::vector<RunEvent> out;
  std::vector<std::string> failures = report.failures;
  if (failures.size() > kMaxFailuresListed) failures.resize(kMaxFailuresListed);

  if (report.error || !report.results) {
    RunError error = report.error.value_or(RunError{"run_failed", "the runner gave no results"});
    out.push_back(RunFailed{run.id, run.test_id, run.project_id, std::string(kOutcomeError),
                            std::string(kReasonError), error.detail, std::move(failures), error,
                            report.results, report.duration, at});
    return out;
  }

  const auto& results = *report.results;
  std::string reason;
  std::string detail;
  if (results.failed > 0) {
    reason = kReasonTestsFailed;
    detail =
        std::to_string(results.failed) + " of " + std::to_string(results.total) + " tests failed";
  } else if (!meets(results.coverage, threshold)) {
    reason = kReasonCoverageBelowThreshold;
    detail = below_threshold_detail(results.coverage, threshold);
  }
  const std::string outcome(reason.empty() ? kOutcomeSuccess : kOutcomeFailure);
  out.push_back(
      RunCompleted{run.id, run.test_id, run.project_id, outcome, results, report.duration, at});
  if (!reason.empty()) {
    out.push_back(RunFailed{run.id, run.test_id, run.project_id, outcome, reason, detail,
                            std::move(failures), std::nullopt, results, report.duration, at});
  }
  if (!project_coverage || *project_coverage != results.coverage) {
    out.push_back(CoverageUpdated{run.project_id, run.test_id, run.id, project_coverage,
                                  results.coverage, at});
  }
  return out;
}

Result<std::vector<RunEvent>> interrupt_run(const TestRun& run, Millis at) {
  RunReport report;
  report.error = RunError{"interrupted", "vouchd stopped before the run finished"};
  report.duration = std::max<std::int64_t>(0, at - run.created);
  return finish_run(run, report, 0, std::nullopt, at);
}

TestRun evolve(TestRun run, const RunEvent& event) {
  std::visit(Overloaded{
                 [&](const RunStarted& started) { run = started.run; },
                 [&](const RunCompleted& completed) {
                   run.status = kRunCompleted;
                   run.outcome = completed.outcome;
                   run.results = completed.results;
                   run.duration = completed.duration;
                   run.completed = completed.at;
                 },
                 [&](const RunFailed& failed) {
                   run.status = kRunCompleted;
                   run.outcome = failed.outcome;
                   if (failed.results) run.results = failed.results;
                   run.failures = failed.failures;
                   run.error = failed.error;
                   run.duration = failed.duration;
                   run.completed = failed.at;
                 },
                 [&](const CoverageUpdated&) {},
             },
             event);
  return run;
}

// --- Stored form --------------------------------------------------------------

EncodedEvent encode(const RunEvent& event) {
  return std::visit(
      Overloaded{
          [](const RunStarted& started) {
            const auto& run = started.run;
            boost::json::object data{{"runId", run.id},
                                     {"testId", run.test_id},
                                     {"projectId", run.project_id},
                                     {"environment", environment_to_json(run.environment)},
                                     {"created", timestamp_of(run.created)}};
            return ja::encoded(kTestRunStartedV1, data);
          },
          [](const RunCompleted& completed) {
            boost::json::object data{{"runId", completed.run_id},
                                     {"testId", completed.test_id},
                                     {"projectId", completed.project_id},
                                     {"status", completed.outcome},
                                     {"duration", completed.duration},
                                     {"results", results_to_json(completed.results)},
                                     {"completed", timestamp_of(completed.at)}};
            return ja::encoded(kTestRunCompletedV1, data);
          },
          [](const RunFailed& failed) {
            boost::json::object data{{"runId", failed.run_id},
                                     {"testId", failed.test_id},
                                     {"projectId", failed.project_id},
                                     {"outcome", failed.outcome},
                                     {"reason", failed.reason},
                                     {"detail", failed.detail},
                                     {"failures", ja::strings_to_json(failed.failures)},
                                     {"error", error_to_json(failed.error)},
                                     {"results", results_to_json(failed.results)},
                                     {"duration", failed.duration},
                                     {"completed", timestamp_of(failed.at)}};
            return ja::encoded(kTestRunFailedV1, data);
          },
          [](const CoverageUpdated& updated) {
            boost::json::object data{{"projectId", updated.project_id},
                                     {"testId", updated.test_id},
                                     {"runId", updated.run_id},
                                     {"previous", optional_coverage_to_json(updated.previous)},
                                     {"current", coverage_to_json(updated.current)},
                                     {"updated", timestamp_of(updated.at)}};
            return ja::encoded(kTestCoverageUpdatedV1, data);
          },
      },
      event);
}

bool is_run_event(std::string_view type) {
  return type == kTestRunStartedV1 || type == kTestRunCompletedV1 || type == kTestRunFailedV1 ||
         type == kTestCoverageUpdatedV1;
}

Result<RunEvent> decode_run_event(std::string_view type, std::string_view data,
                                  const std::string& account) {
  return ja::read_stored<RunEvent>(
      data, std::string(type) + " event",
      [&](const boost::json::object& object) -> Result<RunEvent> {
        const auto run_id = ja::string_at(object, "runId");
        const auto test_id = ja::string_at(object, "testId");
        const auto project_id = ja::string_at(object, "projectId");
        if (type == kTestRunStartedV1) {
          TestRun run;
          run.id = run_id;
          run.account = account;
          run.test_id = test_id;
          run.project_id = project_id;
          run.environment = environment_in(object);
          run.created = millis_at(object, "created");
          return RunEvent{RunStarted{std::move(run)}};
        }
        if (type == kTestRunCompletedV1) {
          auto results = results_from_json(object);
          if (!results) throw ja::CorruptRecord{"completed without results"};
          return RunEvent{RunCompleted{run_id, test_id, project_id, ja::string_at(object, "status"),
                                       *results, ja::int_at(object, "duration"),
                                       millis_at(object, "completed")}};
        }
        if (type == kTestRunFailedV1) {
          return RunEvent{RunFailed{run_id, test_id, project_id, ja::string_at(object, "outcome"),
                                    ja::string_at(object, "reason"),
                                    ja::string_at(object, "detail"),
                                    ja::strings_at(object, "failures"), error_from_json(object),
                                    results_from_json(object), ja::int_at(object, "duration"),
                                    millis_at(object, "completed")}};
        }
        if (type == kTestCoverageUpdatedV1) {
          const auto* current = object.if_contains("current");
          if (!current) throw ja::CorruptRecord{"missing current"};
          return RunEvent{CoverageUpdated{project_id, test_id, run_id,
                                          optional_coverage_from_json(object, "previous"),
                                          coverage_from_json(ja::as_object(*current, "current")),
                                          millis_at(object, "updated")}};
        }
        return Error::internal("not a run event: " + std::string(type));
      });
}

std::string encode_coverage(const Coverage& coverage) {
  return boost::json::serialize(coverage_to_json(coverage));
}

Result<Coverage> decode_coverage(std::string_view text) {
  return ja::read_stored<Coverage>(text, "coverage record", coverage_from_json);
}

std::string encode_run(const TestRun& run) {
  boost::json::object object{{"runId", run.id},
                             {"account", run.account},
                             {"testId", run.test_id},
                             {"projectId", run.project_id},
                             {"environment", environment_to_json(run.environment)},
                             {"status", run.status},
                             {"outcome", run.outcome},
                             {"results", results_to_json(run.results)},
                             {"failures", ja::strings_to_json(run.failures)},
                             {"error", error_to_json(run.error)},
                             {"duration", run.duration},
                             {"created", run.created},
                             {"completed", run.completed}};
  return boost::json::serialize(object);
}

Result<TestRun> decode_run(std::string_view text) {
  return ja::read_stored<TestRun>(text, "run record",
                                  [&](const boost::json::object& object) -> Result<TestRun> {
                                    TestRun run;
                                    run.id = ja::string_at(object, "runId");
                                    run.account = ja::string_at(object, "account");
                                    run.test_id = ja::string_at(object, "testId");
                                    run.project_id = ja::string_at(object, "projectId");
                                    run.environment = environment_in(object);
                                    run.status = ja::string_at(object, "status");
                                    run.outcome = ja::string_at(object, "outcome");
                                    run.results = results_from_json(object);
                                    run.failures = ja::strings_at(object, "failures");
                                    run.error = error_from_json(object);
                                    run.duration = ja::int_at(object, "duration");
                                    run.created = ja::int_at(object, "created");
                                    run.completed = ja::int_at(object, "completed");
                                    return run;
                                  });
}

}  // namespace vouch::events
