#include "events/run.hpp"

#include <gtest/gtest.h>

#include "events/source_file.hpp"

namespace vouch::events {
namespace {

TestRun running_run() {
  TestRun run;
  run.id = "run_1";
  run.account = "acme";
  run.test_id = "tst_1";
  run.project_id = "prj_1";
  run.environment = {"20", {{"left-pad", "^1.3.0"}}};
  run.created = 1000;
  return run;
}

RunReport report_with(std::int64_t passed, std::int64_t failed, Coverage coverage) {
  RunReport report;
  report.results = RunResults{passed + failed, passed, failed, coverage};
  report.duration = 120;
  return report;
}

TEST(FinishRun, AllPassingAboveThresholdIsASuccessAndUpdatesCoverage) {
  const Coverage full{100, 90, 100, 100};
  auto events = finish_run(running_run(), report_with(3, 0, full), 80, std::nullopt, 2000);
  ASSERT_TRUE(events);
  ASSERT_EQ(events->size(), 2u);
  const auto& completed = std::get<RunCompleted>((*events)[0]);
  EXPECT_EQ(completed.outcome, kOutcomeSuccess);
  const auto& updated = std::get<CoverageUpdated>((*events)[1]);
  EXPECT_FALSE(updated.previous);
  EXPECT_EQ(updated.current, full);
}

TEST(FinishRun, UnchangedCoverageEmitsNoUpdate) {
  const Coverage full{100, 100, 100, 100};
  auto events = finish_run(running_run(), report_with(3, 0, full), 80, full, 2000);
  ASSERT_TRUE(events);
  EXPECT_EQ(events->size(), 1u);
}

TEST(FinishRun, AFailingTestIsAFailureWithTheReason) {
  auto report = report_with(2, 1, {100, 100, 100, 100});
  report.failures = {"sum › adds: expected 3"};
  auto events = finish_run(running_run(), report, 80, Coverage{100, 100, 100, 100}, 2000);
  ASSERT_TRUE(events);
  ASSERT_EQ(events->size(), 2u);
  EXPECT_EQ(std::get<RunCompleted>((*events)[0]).outcome, kOutcomeFailure);
  const auto& failed = std::get<RunFailed>((*events)[1]);
  EXPECT_EQ(failed.reason, kReasonTestsFailed);
  EXPECT_EQ(failed.detail, "1 of 3 tests failed");
  EXPECT_EQ(failed.failures, report.failures);
}

TEST(FinishRun, AnyFigureUnderTheThresholdIsAFailure) {
  auto events =
      finish_run(running_run(), report_with(3, 0, {95, 70, 100, 95}), 80, std::nullopt, 2000);
  ASSERT_TRUE(events);
  const auto& failed = std::get<RunFailed>((*events)[1]);
  EXPECT_EQ(failed.reason, kReasonCoverageBelowThreshold);
  EXPECT_EQ(failed.detail, "coverage under the project's threshold of 80%: branches 70%");
}

TEST(FinishRun, AnErrorEndsTheRunWithoutACompletion) {
  RunReport report;
  report.error = RunError{"wall_time_limit", "wall time limit exceeded (8000 ms)"};
  auto events = finish_run(running_run(), report, 80, std::nullopt, 2000);
  ASSERT_TRUE(events);
  ASSERT_EQ(events->size(), 1u);
  const auto& failed = std::get<RunFailed>((*events)[0]);
  EXPECT_EQ(failed.outcome, kOutcomeError);
  EXPECT_EQ(failed.error->code, "wall_time_limit");
  auto run = evolve(running_run(), (*events)[0]);
  EXPECT_EQ(run.status, kRunCompleted);
  EXPECT_EQ(run.outcome, kOutcomeError);
}

TEST(FinishRun, AnEndedRunCannotEndAgain) {
  auto run = running_run();
  run.status = kRunCompleted;
  auto events = finish_run(run, report_with(1, 0, {}), 0, std::nullopt, 2000);
  ASSERT_FALSE(events);
  EXPECT_EQ(events.error().code, base::ErrorCode::kConflict);
}

TEST(FinishRun, InterruptedRunsEndAsErrors) {
  auto events = interrupt_run(running_run(), 5000);
  ASSERT_TRUE(events);
  const auto& failed = std::get<RunFailed>((*events)[0]);
  EXPECT_EQ(failed.error->code, "interrupted");
  EXPECT_EQ(failed.duration, 4000);
}

TEST(RunCodec, EveryEventRoundTripsAndTheRecordFollows) {
  auto run = running_run();
  std::vector<RunEvent> history{RunStarted{run}};
  auto ended = finish_run(run, report_with(1, 1, {50, 25, 100, 50}), 80, std::nullopt, 3000);
  ASSERT_TRUE(ended);
  history.insert(history.end(), ended->begin(), ended->end());
  TestRun folded;
  for (const auto& event : history) {
    auto encoded = encode(event);
    ASSERT_TRUE(is_run_event(encoded.type)) << encoded.type;
    auto decoded = decode_run_event(encoded.type, encoded.data, "acme");
    ASSERT_TRUE(decoded) << decoded.error().message;
    EXPECT_EQ(encode(*decoded).data, encoded.data);
    folded = evolve(std::move(folded), *decoded);
  }
  EXPECT_EQ(folded.outcome, kOutcomeFailure);
  EXPECT_EQ(folded.results->failed, 1);
  auto record = decode_run(encode_run(folded));
  ASSERT_TRUE(record);
  EXPECT_EQ(encode_run(*record), encode_run(folded));
  EXPECT_EQ(record->environment.dependencies.at(0).first, "left-pad");
}

TEST(UploadPaths, OnlySafeRelativePathsAreAccepted) {
  EXPECT_FALSE(invalid_upload_path("src/a.js"));
  EXPECT_FALSE(invalid_upload_path("a.test.js"));
  EXPECT_FALSE(invalid_upload_path("deep/er/..x/a.js"));
  for (const char* bad : {"", "/etc/passwd", "../a.js", "a/../../b.js", "a/..", "a//b.js", "./a.js",
                          "a\\b.js", "a\nb.js"}) {
    EXPECT_TRUE(invalid_upload_path(bad)) << bad;
  }
  for (const char* source : {"a.mjs", "a.ts", "src/App.tsx"}) {
    EXPECT_TRUE(is_javascript_path(source)) << source;
  }
  for (const char* other : {"types/index.d.ts", ".js"}) {
    EXPECT_FALSE(is_javascript_path(other)) << other;
  }
}

}  // namespace
}  // namespace vouch::events
