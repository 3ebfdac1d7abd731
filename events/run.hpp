#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "base/clock.hpp"
#include "base/result.hpp"
#include "events/encoded_event.hpp"
#include "events/run_environment.hpp"

// A run of a generated test suite: its events, state and the pure rules that
// turn a runner's report into events. Stream: "run-<id>".
//
//   RunStarted ─▶ RunCompleted [+ RunFailed] [+ CoverageUpdated]   (results)
//              └▶ RunFailed (outcome error: limit, crash, install, interrupted)
namespace vouch::events {

inline constexpr std::string_view kTestRunStartedV1 = "TestRunStarted.v1";
inline constexpr std::string_view kTestRunCompletedV1 = "TestRunCompleted.v1";
inline constexpr std::string_view kTestRunFailedV1 = "TestRunFailed.v1";
inline constexpr std::string_view kTestCoverageUpdatedV1 = "TestCoverageUpdated.v1";

inline constexpr std::string_view kRunRunning = "running";
inline constexpr std::string_view kRunCompleted = "completed";

inline constexpr std::string_view kOutcomeSuccess = "success";
inline constexpr std::string_view kOutcomeFailure = "failure";
inline constexpr std::string_view kOutcomeError = "error";

// Why a run is not a success (data.reason of test.failed).
inline constexpr std::string_view kReasonTestsFailed = "tests_failed";
inline constexpr std::string_view kReasonCoverageBelowThreshold = "coverage_below_threshold";
inline constexpr std::string_view kReasonError = "error";

struct Coverage {
  double statements = 0;
  double branches = 0;
  double functions = 0;
  double lines = 0;
  friend bool operator==(const Coverage&, const Coverage&) = default;
};

struct RunResults {
  std::int64_t total = 0;
  std::int64_t passed = 0;
  std::int64_t failed = 0;
  Coverage coverage;
};

// Why a run could not complete: a stable code and a sentence.
struct RunError {
  std::string code;  // e.g. "wall_time_limit", "install_failed", "interrupted"
  std::string detail;
};

struct TestRun {
  std::string id;
  std::string account;
  std::string test_id;
  std::string project_id;
  RunEnvironment environment;
  std::string status{kRunRunning};
  std::string outcome;                // empty while running
  std::optional<RunResults> results;  // when tests ran
  std::vector<std::string> failures;  // failing tests, "name: why" (at most kMaxFailuresListed)
  std::optional<RunError> error;      // with outcome error
  std::int64_t duration = 0;          // ms, from start to end
  base::Millis created = 0;
  base::Millis completed = 0;  // 0 while running
};

inline constexpr std::size_t kMaxFailuresListed = 20;

// --- Events ---------------------------------------------------------------

struct RunStarted {
  TestRun run;  // as it starts: status running, no outcome
};
struct RunCompleted {  // tests ran to the end: outcome success or failure
  std::string run_id, test_id, project_id;
  std::string outcome;
  RunResults results;
  std::int64_t duration = 0;
  base::Millis at = 0;
};
struct RunFailed {  // outcome failure (with RunCompleted) or error (alone)
  std::string run_id, test_id, project_id;
  std::string outcome;
  std::string reason;
  std::string detail;
  std::vector<std::string> failures;
  std::optional<RunError> error;
  std::optional<RunResults> results;  // an error may come with partial results
  std::int64_t duration = 0;
  base::Millis at = 0;
};
struct CoverageUpdated {  // the project's latest coverage changed
  std::string project_id, test_id, run_id;
  std::optional<Coverage> previous;  // none before the project's first measured run
  Coverage current;
  base::Millis at = 0;
};

using RunEvent = std::variant<RunStarted, RunCompleted, RunFailed, CoverageUpdated>;

// --- Rules ----------------------------------------------------------------

// What the runner reported: results when tests ran, an error when the run
// could not complete (both when it broke off after some tests).
struct RunReport {
  std::optional<RunResults> results;
  std::vector<std::string> failures;
  std::optional<RunError> error;
  std::int64_t duration = 0;
};

// The events that end `run`, given the report, the project's threshold (a
// success needs every coverage figure at or above it, as Jest's global
// coverageThreshold does) and the project's latest coverage. kConflict when
// the run has already ended.
base::Result<std::vector<RunEvent>> finish_run(const TestRun& run, const RunReport& report,
                                               double threshold,
                                               const std::optional<Coverage>& project_coverage,
                                               base::Millis at);

// The events that end a run found still running after a restart.
base::Result<std::vector<RunEvent>> interrupt_run(const TestRun& run, base::Millis at);

TestRun evolve(TestRun run, const RunEvent& event);

// --- Stored form ------------------------------------------------------------
// The stored data of the four events; their public form (test.started, …)
// is written from the decoded events by events/public_types.cpp.

EncodedEvent encode(const RunEvent& event);
bool is_run_event(std::string_view type);
// REQUIRES: is_run_event(type). kInternal when the data is corrupt.
base::Result<RunEvent> decode_run_event(std::string_view type, std::string_view data,
                                        const std::string& account);

std::string encode_coverage(const Coverage& coverage);
base::Result<Coverage> decode_coverage(std::string_view text);

std::string encode_run(const TestRun& run);
base::Result<TestRun> decode_run(std::string_view text);

inline std::string run_stream(const std::string& id) { return "run-" + id; }

}  // namespace vouch::events
