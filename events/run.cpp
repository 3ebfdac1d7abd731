#include "events/run.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <cstdio>

#include "base/overloaded.hpp"
#include "events/json_access.hpp"
#include "events/json_fields.hpp"
#include "events/stored_events.hpp"

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

constexpr auto kCoverageFields = std::make_tuple(
    ja::field("statements", &Coverage::statements), ja::field("branches", &Coverage::branches),
    ja::field("functions", &Coverage::functions), ja::field("lines", &Coverage::lines));

boost::json::object coverage_to_json(const Coverage& coverage) {
  return ja::to_json(coverage, kCoverageFields);
}

Coverage coverage_from_json(const boost::json::object& object) {
  return ja::from_json<Coverage>(object, kCoverageFields);
}

// The object at `key`, read with `read`; CorruptRecord{missing} when absent or null.
template <class Read>
auto object_at(const boost::json::object& object, std::string_view key, std::string_view missing,
               Read read) {
  const auto* value = object.if_contains(key);
  if (!value || value->is_null()) throw ja::CorruptRecord{std::string(missing)};
  return read(ja::as_object(*value, key));
}

Coverage coverage_at(const boost::json::object& object, std::string_view key) {
  return object_at(object, key, "missing " + std::string(key), coverage_from_json);
}

Coverage results_coverage_at(const boost::json::object& results, std::string_view key) {
  return object_at(results, key, "results without coverage", coverage_from_json);
}

// RunResults; its coverage is required.
constexpr auto kResultsFields = std::make_tuple(
    ja::field("total", &RunResults::total), ja::field("passed", &RunResults::passed),
    ja::field("failed", &RunResults::failed),
    ja::field("coverage", &RunResults::coverage, coverage_to_json, results_coverage_at));

boost::json::object results_to_json(const RunResults& results) {
  return ja::to_json(results, kResultsFields);
}

RunResults results_at(const boost::json::object& object, std::string_view key) {
  return object_at(object, key, "completed without results", [](const auto& results) {
    return ja::from_json<RunResults>(results, kResultsFields);
  });
}

constexpr auto kErrorFields =
    std::make_tuple(ja::field("code", &RunError::code), ja::field("detail", &RunError::detail));

boost::json::object error_to_json(const RunError& error) {
  return ja::to_json(error, kErrorFields);
}

RunError error_at(const boost::json::object& object, std::string_view key) {
  return object_at(object, key, "missing " + std::string(key),
                   [](const auto& error) { return ja::from_json<RunError>(error, kErrorFields); });
}

RunEnvironment environment_at(const boost::json::object& object, std::string_view key) {
  const auto* value = object.if_contains(key);
  if (!value) throw ja::CorruptRecord{"missing " + std::string(key)};
  return environment_from_json(*value);
}

std::string timestamp_of(base::Millis at) { return base::format_timestamp(at); }

base::Millis millis_at(const boost::json::object& object, std::string_view key) {
  auto parsed = base::parse_timestamp(ja::string_at(object, key));
  if (!parsed) throw ja::CorruptRecord{std::string(key) + " is not a timestamp"};
  return *parsed;
}

// The stored run events' data (times as timestamps) and the run record.
constexpr auto kRunStartedFields = std::make_tuple(
    ja::field("runId", &TestRun::id), ja::field("testId", &TestRun::test_id),
    ja::field("projectId", &TestRun::project_id),
    ja::field("environment", &TestRun::environment, environment_to_json, environment_at),
    ja::field("created", &TestRun::created, timestamp_of, millis_at));
// The ids of the run that a RunCompleted or RunFailed ends, stored first.
template <class End>
constexpr auto run_end_ids() {
  return std::make_tuple(ja::field("runId", &End::run_id), ja::field("testId", &End::test_id),
                         ja::field("projectId", &End::project_id));
}
constexpr auto kRunCompletedFields = std::tuple_cat(
    run_end_ids<RunCompleted>(),
    std::make_tuple(ja::field("status", &RunCompleted::outcome),
                    ja::field("duration", &RunCompleted::duration),
                    ja::field("results", &RunCompleted::results, results_to_json, results_at),
                    ja::field("completed", &RunCompleted::at, timestamp_of, millis_at)));
constexpr auto kRunFailedFields = std::tuple_cat(
    run_end_ids<RunFailed>(),
    std::make_tuple(
        ja::field("outcome", &RunFailed::outcome), ja::field("reason", &RunFailed::reason),
        ja::field("detail", &RunFailed::detail), ja::field("failures", &RunFailed::failures),
        ja::field("error", &RunFailed::error, error_to_json, error_at),
        ja::field("results", &RunFailed::results, results_to_json, results_at),
        ja::field("duration", &RunFailed::duration),
        ja::field("completed", &RunFailed::at, timestamp_of, millis_at)));
constexpr auto kCoverageUpdatedFields = std::make_tuple(
    ja::field("projectId", &CoverageUpdated::project_id),
    ja::field("testId", &CoverageUpdated::test_id), ja::field("runId", &CoverageUpdated::run_id),
    ja::field("previous", &CoverageUpdated::previous, coverage_to_json, coverage_at),
    ja::field("current", &CoverageUpdated::current, coverage_to_json, coverage_at),
    ja::field("updated", &CoverageUpdated::at, timestamp_of, millis_at));
constexpr auto kRunEvents = std::make_tuple(
    ja::stored_event<RunStarted>(
        kTestRunStartedV1, std::make_tuple(ja::inline_fields(&RunStarted::run, kRunStartedFields))),
    ja::stored_event<RunCompleted>(kTestRunCompletedV1, kRunCompletedFields),
    ja::stored_event<RunFailed>(kTestRunFailedV1, kRunFailedFields),
    ja::stored_event<CoverageUpdated>(kTestCoverageUpdatedV1, kCoverageUpdatedFields));
constexpr auto kRunFields = std::make_tuple(
    ja::field("runId", &TestRun::id), ja::field("account", &TestRun::account),
    ja::field("testId", &TestRun::test_id), ja::field("projectId", &TestRun::project_id),
    ja::field("environment", &TestRun::environment, environment_to_json, environment_at),
    ja::field("status", &TestRun::status), ja::field("outcome", &TestRun::outcome),
    ja::field("results", &TestRun::results, results_to_json, results_at),
    ja::field("failures", &TestRun::failures),
    ja::field("error", &TestRun::error, error_to_json, error_at),
    ja::field("duration", &TestRun::duration), ja::field("created", &TestRun::created),
    ja::field("completed", &TestRun::completed));

}  // namespace

// --- Rules -------------------------------------------------------------------

base::Result<std::vector<RunEvent>> finish_run(const TestRun& run, const RunReport& report,
                                               double threshold,
                                               const std::optional<Coverage>& project_coverage,
                                               base::Millis at) {
  if (run.status != kRunRunning)
    return base::Error::conflict("run " + run.id + " has already ended");
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

base::Result<std::vector<RunEvent>> interrupt_run(const TestRun& run, base::Millis at) {
  RunReport report;
  report.error = RunError{"interrupted", "vouchd stopped before the run finished"};
  report.duration = std::max<std::int64_t>(0, at - run.created);
  return finish_run(run, report, 0, std::nullopt, at);
}

TestRun evolve(TestRun run, const RunEvent& event) {
  std::visit(base::Overloaded{
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

EncodedEvent encode(const RunEvent& event) { return ja::encode_event(event, kRunEvents); }

bool is_run_event(std::string_view type) { return ja::is_stored_event(type, kRunEvents); }

base::Result<RunEvent> decode_run_event(std::string_view type, std::string_view data,
                                        const std::string& account) {
  auto event = ja::decode_event<RunEvent>(type, data, "a run event", kRunEvents);
  // The account is the stream's, not in the data.
  if (event) {
    if (auto* started = std::get_if<RunStarted>(&*event)) started->run.account = account;
  }
  return event;
}

std::string encode_coverage(const Coverage& coverage) {
  return ja::serialize(coverage, kCoverageFields);
}

base::Result<Coverage> decode_coverage(std::string_view text) {
  return ja::parse<Coverage>(text, "coverage record", kCoverageFields);
}

std::string encode_run(const TestRun& run) { return ja::serialize(run, kRunFields); }

base::Result<TestRun> decode_run(std::string_view text) {
  return ja::parse<TestRun>(text, "run record", kRunFields);
}

}  // namespace vouch::events
