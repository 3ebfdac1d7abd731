#include "actors/execution/runner_protocol.hpp"

#include <gtest/gtest.h>

namespace vouch::actors {
namespace {

process::ProcessExit exited(int code, std::string stderr_tail = {}) {
  process::ProcessExit exit;
  exit.code = code;
  exit.stderr_tail = std::move(stderr_tail);
  return exit;
}

TEST(ReadRun, ResultsAndFailuresComeFromTheResultLine) {
  const std::string line =
      R"({"ok":true,"results":{"total":2,"passed":1,"failed":1,)"
      R"("coverage":{"statements":80,"branches":50,"functions":100,"lines":75.5},)"
      R"("tests":[{"name":"m › a","file":"t.js","status":"passed"},)"
      R"({"name":"m › b","file":"t.js","status":"failed","message":"Expected: 3\n\nReceived: 2"}]},"durationMs":9})";
  auto report = read_run(line, exited(0, R"({"sandbox":{"status":"exited","code":0}})"));
  ASSERT_TRUE(report.results);
  EXPECT_FALSE(report.error);
  EXPECT_EQ(report.results->failed, 1);
  EXPECT_DOUBLE_EQ(report.results->coverage.lines, 75.5);
  ASSERT_EQ(report.failures.size(), 1u);
  EXPECT_EQ(report.failures[0], "m › b: Expected: 3 Received: 2");
}

TEST(ReadRun, TheRunnersOwnErrorKeepsItsCode) {
  auto report =
      read_run(R"({"ok":false,"error":{"code":"no_tests","detail":"no test files"}})", exited(1));
  ASSERT_TRUE(report.error);
  EXPECT_EQ(report.error->code, "no_tests");
}

TEST(ReadRun, WithoutAResultLineTheSandboxReportSaysWhy) {
  auto report = read_run(
      std::nullopt, exited(202,
                           "noise\n{\"sandbox\":{\"status\":\"limit\",\"code\":\"wall_time_limit\","
                           "\"detail\":\"wall time limit exceeded (2000 ms)\"}}\n"));
  ASSERT_TRUE(report.error);
  EXPECT_EQ(report.error->code, "wall_time_limit");
  EXPECT_EQ(report.error->detail, "wall time limit exceeded (2000 ms)");
  auto crashed = read_run(std::nullopt,
                          exited(139, R"({"sandbox":{"status":"signaled","signal":"SIGSEGV"}})"));
  EXPECT_EQ(crashed.error->code, "crashed");
  auto silent = read_run(std::nullopt, exited(1, "Segmentation fault"));
  EXPECT_EQ(silent.error->code, "sandbox_failed");
}

TEST(ReadGeneration, AnAnswerOrAClearError) {
  auto ok = read_generation(
      R"({"files":[{"path":"__tests__/a.test.js","content":"x"}],"summary":{"testsKept":1}})",
      exited(0));
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(ok->files.size(), 1u);
  EXPECT_EQ(ok->summary, R"({"testsKept":1})");
  EXPECT_FALSE(ok->sources);  // all of the submitted files
  auto stated = read_generation(
      R"({"files":[],"summary":{},"sources":["index.js","package.json"]})", exited(0));
  ASSERT_TRUE(stated) << stated.error().message;
  EXPECT_EQ(*stated->sources, (std::vector<std::string>{"index.js", "package.json"}));
  EXPECT_FALSE(read_generation(R"({"files":[],"summary":{},"sources":"x"})", exited(0)));
  auto refused = read_generation(R"({"error":"files must be an array"})", exited(1));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, base::ErrorCode::kInternal);
  auto limit = read_generation(
      std::nullopt,
      exited(
          203,
          R"x({"sandbox":{"status":"limit","code":"memory_limit","detail":"memory limit exceeded (2048 MB)"}})x"));
  ASSERT_FALSE(limit);
  EXPECT_NE(limit.error().message.find("memory limit exceeded"), std::string::npos);
  // The generator's own overrun: a valid package is never answered 4xx for it.
  EXPECT_EQ(limit.error().code, base::ErrorCode::kInternal);
  auto wall = read_generation(
      std::nullopt,
      exited(
          202,
          R"x({"sandbox":{"status":"limit","code":"wall_time_limit","detail":"wall time limit exceeded (97500 ms)"}})x"));
  ASSERT_FALSE(wall);
  EXPECT_EQ(wall.error().code, base::ErrorCode::kInternal);
  // Uploaded code that signals the generator (its parent) is the request's doing.
  auto signalled = read_generation(
      std::nullopt, exited(143, R"({"sandbox":{"status":"signaled","signal":"SIGTERM"}})"));
  ASSERT_FALSE(signalled);
  EXPECT_EQ(signalled.error().code, base::ErrorCode::kInvalid);
}

TEST(GenerationJob, NamesTheInstalledDependenciesOnlyWhenThereAreAny) {
  GenerationJob job{{{"a.js", "exports.f = 1;"}},    "jest",       80,
                    std::chrono::milliseconds(9000), std::nullopt, std::chrono::milliseconds(0)};
  EXPECT_EQ(generation_job_line(job).find("nodePath"), std::string::npos);
  job.node_path = "/data/deps/abc/node_modules";
  EXPECT_NE(generation_job_line(job).find(R"("nodePath":"/data/deps/abc/node_modules")"),
            std::string::npos);
}

TEST(GenerationJob, NamesItsWallLimitOnlyWhenItHasOne) {
  GenerationJob job{{{"a.js", "exports.f = 1;"}},    "jest",       80,
                    std::chrono::milliseconds(9000), std::nullopt, std::chrono::milliseconds(0)};
  EXPECT_EQ(generation_job_line(job).find("wallLimitMs"), std::string::npos);
  job.wall_limit = std::chrono::milliseconds(40'000);
  EXPECT_NE(generation_job_line(job).find(R"("wallLimitMs":40000)"), std::string::npos);
}

TEST(GenerationJob, HoldsVerificationToTheRunPathsMemoryLimit) {
  GenerationJob job{{{"a.js", "exports.f = 1;"}},    "jest",       80,
                    std::chrono::milliseconds(9000), std::nullopt, std::chrono::milliseconds(0)};
  EXPECT_EQ(generation_job_line(job).find("runLimits"), std::string::npos);
  job.run_memory_mb = 1024;
  EXPECT_NE(generation_job_line(job).find(
                R"("runLimits":{"memoryMb":1024,"nodeOptions":"--max-old-space-size=768"})"),
            std::string::npos);
}

TEST(GenerationSummary, AProblemIsAddedToTheOnesTheGeneratorFound) {
  EXPECT_EQ(
      with_problem(R"({"testsKept":1,"problems":[{"path":"a.js","code":"no_tests"}]})",
                   "environment.dependencies", "install_failed", "npm error 404"),
      R"({"testsKept":1,"problems":[{"path":"a.js","code":"no_tests"},)"
      R"({"path":"environment.dependencies","code":"install_failed","message":"npm error 404"}]})");
  EXPECT_EQ(with_problem("{}", "p", "c", "m"),
            R"({"problems":[{"path":"p","code":"c","message":"m"}]})");
}

TEST(SandboxCommand, LimitsHiddenFoldersAndTheScript) {
  RunnerSettings settings;
  settings.runner_dir = "/opt/vouch/runner";
  settings.sandbox = "/opt/vouch/bin/vouch-sandbox";
  settings.node = "/usr/bin/node";
  settings.isolation = "bubblewrap";
  settings.hidden = {"/var/lib/vouch"};
  settings.dependency_root = "/var/lib/vouch/deps";
  auto spec =
      sandboxed_runner(settings, SandboxLimits{3, 256, 32, 8, 2000}, "/var/lib/vouch/work/x",
                       "/usr/bin/node", "run.js", {}, {"/var/lib/vouch/deps/abc/node_modules"});
  EXPECT_EQ(spec.program, "/opt/vouch/bin/vouch-sandbox");
  const std::vector<std::string> expected{"/var/lib/vouch/work/x",
                                          "--isolation",
                                          "bubblewrap",
                                          "--cpu-seconds",
                                          "3",
                                          "--memory-mb",
                                          "256",
                                          "--max-procs",
                                          "32",
                                          "--max-file-mb",
                                          "8",
                                          "--wall-ms",
                                          "2000",
                                          "--hide",
                                          "/var/lib/vouch",
                                          "--ro",
                                          "/opt/vouch/runner",
                                          "--ro",
                                          "/usr/bin",
                                          "--ro",
                                          "/var/lib/vouch/deps/abc/node_modules",
                                          "--",
                                          "/usr/bin/node",
                                          "/opt/vouch/runner/bin/run.js"};
  EXPECT_EQ(spec.args, expected);
  ASSERT_EQ(spec.env.size(), 1u);
  EXPECT_TRUE(spec.env[0].starts_with("PATH="));
}

// Every run ends with results or an error: an answer that says ok but
// carries no results is an error (found by the runner_protocol fuzzer).
TEST(ReadRun, OkWithoutResultsIsAnError) {
  auto report = read_run(R"({"ok":true,"rsults":{"total":1}})", exited(0));
  EXPECT_FALSE(report.results.has_value());
  ASSERT_TRUE(report.error.has_value());
  EXPECT_EQ(report.error->code, "run_failed");
}

TEST(ReadTestCases, EveryTestOfTheResultLineWithItsSuiteTimeAndFailure) {
  const std::string line =
      R"({"ok":true,"results":{"total":3,"passed":1,"failed":1,)"
      R"("coverage":{"statements":80,"branches":50,"functions":100,"lines":75},"tests":[)"
      R"({"name":"m › a","file":"t.js","status":"passed","suite":"m","title":"a","durationMs":12},)"
      R"({"name":"m › b","file":"t.js","status":"failed","suite":"m","title":"b","durationMs":3,)"
      R"json("message":"Expected: 3","stack":"at Object.<anonymous> (t.js:4:5)"},)json"
      R"({"name":"c","file":"u.js","status":"pending","durationMs":-5},)"
      R"({"file":"u.js","status":"passed"},7]}})";
  const auto cases = read_test_cases(line);
  ASSERT_EQ(cases.size(), 3u);  // the nameless entry and the number are left out
  EXPECT_EQ(cases[0].suite, "m");
  EXPECT_EQ(cases[0].duration_ms, 12);
  EXPECT_EQ(cases[0].status, "passed");
  EXPECT_TRUE(cases[0].message.empty());
  EXPECT_EQ(cases[1].status, "failed");
  EXPECT_EQ(cases[1].message, "Expected: 3");
  EXPECT_EQ(cases[1].stack, "at Object.<anonymous> (t.js:4:5)");
  EXPECT_EQ(cases[2].status, "skipped");  // Jest's pending
  EXPECT_EQ(cases[2].duration_ms, 0);
  EXPECT_TRUE(read_test_cases("not json").empty());
  EXPECT_TRUE(read_test_cases(R"({"ok":false,"error":{"code":"x","detail":"y"}})").empty());
}

TEST(ReadGenerationProgress, OnlyProgressLinesAreProgress) {
  auto progress = read_generation_progress(
      R"({"progress":{"phase":"searching","filesDone":1,"filesTotal":3,"testsKept":0}})");
  ASSERT_TRUE(progress);
  EXPECT_EQ(progress->phase, "searching");
  EXPECT_EQ(progress->files_done, 1u);
  EXPECT_EQ(progress->files_total, 3u);
  EXPECT_EQ(progress->tests_kept, 0u);
  EXPECT_FALSE(read_generation_progress(R"({"files":[],"summary":{}})"));
  EXPECT_FALSE(read_generation_progress(R"({"progress":{"filesDone":1}})"));
  EXPECT_FALSE(read_generation_progress(R"({"progress":"searching"})"));
  auto odd = read_generation_progress(R"({"progress":{"phase":"x","filesDone":-4}})");
  ASSERT_TRUE(odd);
  EXPECT_EQ(odd->files_done, 0u);
}

}  // namespace
}  // namespace vouch::actors
