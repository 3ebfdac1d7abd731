// POST /v1/tests/run and GET /v1/tests/results/{runId} against the real
// vouchd: real runners, real Jest, the real sandbox, real npm installs.
#include <csignal>
#include <fstream>
#include <map>

#include "runner_fixture.hpp"

namespace vouch::testing {
namespace {

// Tested code that behaves one way while `is-number` cannot be required
// (when tests are generated: runs no dependencies) and another once a run
// installs it: generated tests assert the first, a run with the dependency
// meets the second. This is how a suite that passed at generation fails, or
// turns hostile, at run time.
std::string triggered(const std::string& body, bool async = false) {
  return std::string(async ? "exports.act = async () => {\n" : "exports.act = () => {\n") +
         "  try { require('is-number'); } catch (e) { return 'dormant'; }\n" + body + "\n};\n";
}
const std::string kWithTrigger = R"({"dependencies":{"is-number":"7.0.0"}})";

class RunsTest : public RunnerTest {
 protected:
  void SetUp() override {
    // Small limits, so that hostile runs end quickly. The CPU limit includes
    // the runner's start (one to two CPU seconds of priming Jest), and filling
    // 512 MB takes V8's collector a few more: the CPU limit is the last to come.
    start({"--run-wall-ms", "8000", "--run-cpu-seconds", "12", "--run-memory-mb", "512",
           "--run-max-file-mb", "8", "--run-max-procs", "96"});
  }
};

TEST_F(RunsTest, APassingSuiteCompletesWithResultsAndCoverage) {
  const auto project = create_project(80);
  const auto test = generated(project, {{"math.js", "exports.abs = (n) => (n < 0 ? -n : n);\n"}});
  auto response = start_run(test, R"({"nodeVersion":"20"})");
  ASSERT_EQ(response.status, 202u) << response.body;
  auto started = json(response);
  EXPECT_EQ(started["status"], "running");
  EXPECT_TRUE(started["results"].is_null());
  EXPECT_EQ(response.header("location"),
            "/v1/tests/results/" + std::string(started["runId"].as_string()));
  auto run = wait_for_run(std::string(started["runId"].as_string()));
  EXPECT_EQ(run["outcome"], "success") << boost::json::serialize(run);
  auto& results = run["results"].as_object();
  EXPECT_GT(results["passed"].to_number<double>(), 0);
  EXPECT_EQ(results["failed"].to_number<double>(), 0);
  EXPECT_EQ(results["total"], results["passed"]);
  EXPECT_EQ(results["coverage"].at("statements").to_number<double>(), 100);
  EXPECT_EQ(results["coverage"].at("branches").to_number<double>(), 100);
  EXPECT_GE(run["duration"].to_number<double>(), 0);
  EXPECT_FALSE(run["completed"].is_null());
  EXPECT_EQ(json(call("GET", "/v1/tests/" + test))["status"], "passed");

  // vouchd stops at once after a run (nothing of the run holds the actor
  // system), and the log holds the generation and the run's events, and the
  // tests and runs read models equal a rebuild from it.
  const auto stopping = std::chrono::steady_clock::now();
  ASSERT_EQ(server_->terminate(), 0);
  EXPECT_LT(std::chrono::steady_clock::now() - stopping, std::chrono::seconds(5));
  auto replay = run_vouchd({"replay", "--data", data().string(), "--verify"});
  EXPECT_EQ(replay.status, 0) << replay.out;
  for (const char* type :
       {"TestGenerated.v1", "TestRunStarted.v1", "TestRunCompleted.v1", "TestCoverageUpdated.v1"}) {
    EXPECT_NE(replay.out.find(type), std::string::npos) << type;
  }
}

TEST_F(RunsTest, ALongPollAnswersWhenTheRunEnds) {
  const auto project = create_project(0);
  const auto test = generated(project, {{"math.js", "exports.abs = (n) => (n < 0 ? -n : n);\n"}});
  auto response = start_run(test);
  ASSERT_EQ(response.status, 202u) << response.body;
  const std::string run_id(json(response)["runId"].as_string());
  HttpRequest poll{"GET", "/v1/tests/results/" + run_id, VouchdProcess::kAdminKey};
  poll.headers["Prefer"] = "respond-async, wait=25";
  auto answer = send(server_->port(), poll);
  ASSERT_EQ(answer.status, 200u) << answer.body;
  EXPECT_EQ(json(answer)["status"], "completed") << answer.body;
  EXPECT_EQ(json(answer)["outcome"], "success") << answer.body;
  EXPECT_EQ(answer.header("preference-applied"), "wait=25");

  // A completed run, an unknown one and a malformed preference answer at once.
  answer = send(server_->port(), poll);
  EXPECT_EQ(json(answer)["status"], "completed");
  EXPECT_EQ(answer.header("preference-applied"), "");
  poll.target = "/v1/tests/results/run_000000000000000000000000";
  EXPECT_EQ(send(server_->port(), poll).status, 404u);
  poll.target = "/v1/tests/results/" + run_id;
  poll.headers["Prefer"] = "wait=soon";
  EXPECT_EQ(send(server_->port(), poll).status, 200u);
}

TEST_F(RunsTest, ALongPollOfALongerRunAnswersRunningWhenItsWaitEndsOrVouchdStops) {
  const auto project = create_project(0);
  const auto test = generated(project, {{"spin.js", triggered("  for (;;) {}")}});
  run_to_end(test, kWithTrigger);  // installs the trigger
  auto response = start_run(test, kWithTrigger);
  ASSERT_EQ(response.status, 202u);
  const std::string run_id(json(response)["runId"].as_string());
  HttpRequest poll{"GET", "/v1/tests/results/" + run_id, VouchdProcess::kAdminKey};
  poll.headers["Prefer"] = "wait=1";
  const auto asked = std::chrono::steady_clock::now();
  auto answer = send(server_->port(), poll);
  EXPECT_GE(std::chrono::steady_clock::now() - asked, std::chrono::milliseconds(900));
  EXPECT_EQ(json(answer)["status"], "running") << answer.body;
  EXPECT_EQ(answer.header("preference-applied"), "wait=1");

  // SIGTERM answers a waiting long poll at once instead of holding the drain.
  poll.headers["Prefer"] = "wait=25";
  std::thread stopper([this] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_EQ(server_->terminate(), 0);
  });
  const auto waited = std::chrono::steady_clock::now();
  answer = send(server_->port(), poll);
  EXPECT_LT(std::chrono::steady_clock::now() - waited, std::chrono::seconds(5));
  stopper.join();  // vouchd has exited (0): its runner with it, not at the wall-time limit
  EXPECT_LT(std::chrono::steady_clock::now() - waited, std::chrono::seconds(5));
  EXPECT_EQ(answer.status, 200u) << answer.body;
  EXPECT_EQ(json(answer)["status"], "running") << answer.body;
  // The run cut short by the stop ends as interrupted at the next start.
  start();
  auto run = wait_for_run(run_id, std::chrono::seconds(10));
  EXPECT_EQ(run["outcome"], "error");
  EXPECT_EQ(run["error"].at("code"), "interrupted");
}

TEST_F(RunsTest, FailingTestsMakeAFailureThatNamesThem) {
  const auto project = create_project(0);
  const auto test = generated(project, {{"flip.js", triggered("  return 'awake';")}});
  auto run = run_to_end(test, kWithTrigger);  // installs is-number and uses it
  EXPECT_EQ(run["outcome"], "failure") << boost::json::serialize(run);
  EXPECT_GT(run["results"].at("failed").to_number<double>(), 0);
  ASSERT_FALSE(run["failures"].as_array().empty());
  const std::string failure(run["failures"].as_array()[0].as_string());
  EXPECT_NE(failure.find("awake"), std::string::npos) << failure;
  EXPECT_EQ(json(call("GET", "/v1/tests/" + test))["status"], "failed");

  // The same dependency map again: nothing to install, same verdict.
  auto again = run_to_end(test, kWithTrigger);
  EXPECT_EQ(again["outcome"], "failure");
}

TEST_F(RunsTest, CoverageUnderTheProjectThresholdIsAFailure) {
  const auto project = create_project(100);
  // The generator cannot set this variable: one branch stays uncovered.
  const auto test = generated(
      project, {{"env.js",
                 "exports.mode = () => {\n  if (process.env.VOUCH_NEVER_SET === 'yes') {\n"
                 "    return 'special';\n  }\n  return 'normal';\n};\n"}});
  auto run = run_to_end(test);
  EXPECT_EQ(run["outcome"], "failure") << boost::json::serialize(run);
  EXPECT_EQ(run["results"].at("failed").to_number<double>(), 0);
  EXPECT_LT(run["results"].at("coverage").at("branches").to_number<double>(), 100);
  // Its test.failed event, in its public form (checked against docs/openapi.json like every
  // answer): the reason, and the results with the figures under the threshold.
  auto failed = json(call("GET", "/v1/events?type=test.failed"));
  ASSERT_EQ(failed["events"].as_array().size(), 1u) << boost::json::serialize(failed);
  const auto& data = failed["events"].as_array()[0].at("data");
  EXPECT_EQ(data.at("reason"), "coverage_below_threshold");
  EXPECT_EQ(data.at("runId"), run["runId"]);
  EXPECT_EQ(data.at("results"), run["results"]);
}

TEST_F(RunsTest, BadRunRequestsAreRefused) {
  const auto project = create_project();
  const auto test = generated(project, {{"a.js", "exports.f = () => 1;"}});
  EXPECT_EQ(start_run("tst_missing").status, 404u);

  auto other = call("POST", "/v1/keys", VouchdProcess::kAdminKey,
                    R"({"account":"other","plan":"pro","scopes":["tests:read","tests:write"]})");
  ASSERT_EQ(other.status, 201u);
  const std::string other_key(json(other)["key"].as_string());
  EXPECT_EQ(start_run(test, "{}", other_key).status, 404u);

  auto old_node = start_run(test, R"({"nodeVersion":"12"})");
  ASSERT_EQ(old_node.status, 400u);
  EXPECT_EQ(field_of(old_node), "environment.nodeVersion");
  EXPECT_NE(old_node.body.find("available: 20"), std::string::npos) << old_node.body;

  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"nodeVersion":20})", "environment.nodeVersion"},
      {R"({"dependencies":["left-pad"]})", "environment.dependencies"},
      {R"({"dependencies":{"left-pad":1}})", "environment.dependencies.left-pad"},
      {R"({"dependencies":{"left-pad":"file:/etc"}})", "environment.dependencies.left-pad"},
      {R"({"dependencies":{"left-pad":"git+https://example.com/x.git"}})",
       "environment.dependencies.left-pad"},
      {R"({"dependencies":{"Not A Name":"1.0.0"}})", "environment.dependencies.Not A Name"},
  };
  for (const auto& [environment, field] : cases) {
    auto response = start_run(test, environment);
    EXPECT_EQ(response.status, 400u) << environment << " → " << response.body;
    if (response.status == 400u) {
      EXPECT_EQ(field_of(response), field) << environment;
    }
  }
  EXPECT_EQ(call("POST", "/v1/tests/run", VouchdProcess::kAdminKey, "{}").status, 400u);
  EXPECT_EQ(call("GET", "/v1/tests/results/run_missing").status, 404u);
}

TEST_F(RunsTest, ADependencyThatCannotBeInstalledFailsTheRunWithNpmsReason) {
  const auto project = create_project();
  const auto test = generated(project, {{"a.js", "exports.f = () => 1;"}});
  auto run = run_to_end(test, R"({"dependencies":{"vouch-no-such-package-4711":"1.0.0"}})");
  EXPECT_EQ(run["outcome"], "error");
  EXPECT_EQ(run["error"].at("code"), "install_failed");
  const std::string detail(run["error"].at("detail").as_string());
  EXPECT_NE(detail.find("404"), std::string::npos) << detail;
  EXPECT_EQ(call("GET", "/healthz", "").status, 200u);
}

// Each hostile module, once its trigger is installed, attacks; each run ends
// as an error or a failure that says what happened, and vouchd keeps serving.
TEST_F(RunsTest, HostileCodeIsContained) {
  const auto project = create_project(0);
  const auto outside = folder_.path() / "outside.txt";
  struct Case {
    std::string name;
    std::string body;
    bool async;
    std::string outcome;   // error or failure; empty: either
    std::string evidence;  // in error.code, or in the failures
  };
  const std::string server_port = std::to_string(server_->port());
  const std::vector<Case> cases = {
      {"loops", "  for (;;) {}", false, "error", "_limit"},
      {"allocates", "  const hoard = []; for (;;) hoard.push(new Array(1e6).fill(7));", false,
       "error", "memory_limit"},
      {"forks",
       "  const { spawn } = require('child_process');\n"
       "  for (;;) {\n"
       "    await new Promise((resolve, reject) => {\n"
       "      const child = spawn('sleep', ['30']);\n"
       "      child.on('spawn', resolve);\n"
       "      child.on('error', reject);\n"
       "    });\n  }",
       true, "error", "process_limit"},
      // Spawning without ever yielding: stopped by the memory or the process
      // limit (a node that cannot start a thread may crash), always an error.
      {"forks_blindly",
       "  const { spawn } = require('child_process');\n"
       "  for (;;) spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);",
       false, "error", "\"code\""},
      {"writes_big", "  require('fs').writeFileSync('big.bin', Buffer.alloc(64 * 1024 * 1024));",
       false, "error", "file_size_limit"},
      {"network",
       "  return await new Promise((resolve, reject) => {\n"
       "    const socket = require('net').connect(80, '1.1.1.1', () => resolve('connected'));\n"
       "    socket.on('error', (error) => reject(error));\n  });",
       true, "failure", "E"},
      {"reads_data", "  return require('fs').readdirSync('" + data().string() + "').join(',');",
       false, "failure", "Received"},
      {"writes_outside",
       "  require('fs').writeFileSync('" + outside.string() + "', 'escaped');\n  return 'wrote';",
       false, "failure", "act"},
      {"signals_parent", "  process.kill(process.ppid, 'SIGKILL');\n  return 'signalled';", false,
       "failure", "act"},
      // The server's port on loopback: the sandbox's loopback is its own.
      {"connects_to_server",
       "  return await new Promise((resolve, reject) => {\n"
       "    const socket = require('net').connect(" +
           server_port +
           ", '127.0.0.1', () => resolve('connected'));\n"
           "    socket.on('error', (error) => reject(error));\n  });",
       true, "failure", "ECONNREFUSED"},
      // One 4 GiB allocation: refused (RangeError) or stopped at the memory limit.
      {"allocates_4g", "  return Buffer.alloc(4 * 1024 * 1024 * 1024).length;", false, "", ""},
      // A gigabyte of output: bounded, the run still ends with a report.
      {"prints_a_lot",
       "  const line = 'x'.repeat(4096);\n"
       "  for (let i = 0; i < 250000; ++i) process.stdout.write(line);\n  return 'printed';",
       false, "", ""},
      {"signals_everyone", "  process.kill(-1, 'SIGKILL');\n  return 'signalled';", false, "", ""},
      // The runner's stdout, where its result line goes: the run ends as an
      // error that says so, not as one without a result.
      {"closes_stdout", "  require('fs').closeSync(1);\n  return 'closed';", false, "error",
       "closed or replaced the runner's stdout"},
      // Inside the sandbox a run's own folder is at /tmp/vouch-work: the folder
      // of all work folders is not there at all.
      {"reads_other_jobs",
       "  return require('fs').readdirSync('" + (data() / "work").string() + "').join(',');", false,
       "failure", "ENOENT"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const auto test = generated(project, {{c.name + ".js", triggered(c.body, c.async)}});
    auto run = run_to_end(test, kWithTrigger);
    if (!c.outcome.empty()) {
      EXPECT_EQ(run["outcome"].as_string(), c.outcome) << boost::json::serialize(run);
    } else {
      EXPECT_NE(run["outcome"].as_string(), "success") << boost::json::serialize(run);
    }
    EXPECT_LT(boost::json::serialize(run).size(), 1024u * 1024u) << c.name << ": report too big";
    const auto text =
        boost::json::serialize(run["outcome"] == "error" ? run["error"] : run["failures"]);
    EXPECT_NE(text.find(c.evidence), std::string::npos) << text;
    if (c.name == "reads_data") {
      EXPECT_EQ(text.find("LOCK"), std::string::npos) << text;
    }
    // vouchd serves on.
    EXPECT_EQ(call("GET", "/healthz", "").status, 200u);
  }
  EXPECT_FALSE(std::filesystem::exists(outside));
}

// The files below the project's transform cache (store::TransformCache),
// once the runs that left them have ended: a cache is taken back after the
// result is answered.
std::vector<std::string> cached_files(const std::filesystem::path& cache, std::size_t at_least) {
  std::vector<std::string> files;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  do {
    files.clear();
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(cache, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_regular_file()) files.push_back(it->path().lexically_relative(cache).string());
    }
    if (files.size() >= at_least) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  } while (std::chrono::steady_clock::now() < deadline);
  return files;
}

TEST_F(RunsTest, AProjectsRunsShareItsTransformsAndNothingARunPlantsIsFollowed) {
  const auto project = create_project(0);
  const auto other = create_project(0);
  const auto test = generated(project, {{"math.js", "exports.abs = (n) => (n < 0 ? -n : n);\n"}});
  const auto first = run_to_end(test);
  ASSERT_EQ(first.at("outcome"), "success") << boost::json::serialize(first);
  const auto cache = data() / "transform-cache" / project;
  // The source and the test file, each with its source map.
  const auto kept = cached_files(cache, 4);
  ASSERT_GE(kept.size(), 4u);
  for (const auto& file : kept) EXPECT_TRUE(file.starts_with("jest-transform-cache-")) << file;

  // The next run takes them (nothing new to keep) and reports the same.
  const auto second = run_to_end(test);
  EXPECT_EQ(second.at("outcome"), "success") << boost::json::serialize(second);
  EXPECT_EQ(second.at("results"), first.at("results"));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(cached_files(cache, kept.size()).size(), kept.size());

  // A run that leaves a link to a server file in its cache folder: the run
  // completes, nothing of its cache is kept, and no other project has one.
  // The planting waits for the trigger: the generator refuses code that
  // writes outside its scenario's folder, so it only plants in the run, and
  // the test that saw it dormant then fails.
  const auto secret = data() / "secret.txt";
  { std::ofstream(secret) << "server only"; }
  const auto planting = generated(
      project,
      {{"plant.js",
        triggered("  const fs = require('fs');\n"
                  "  const path = require('path');\n"
                  "  const planted =\n"
                  "    path.join(__dirname, '.jest-cache/jest-transform-cache-planted/ab');\n"
                  "  fs.mkdirSync(planted, { recursive: true });\n"
                  "  try { fs.symlinkSync('" +
                  secret.string() +
                  "', path.join(planted, 'link')); } catch (e) {}\n"
                  "  return 'planted';")}});
  const auto planted = run_to_end(planting, kWithTrigger);
  EXPECT_EQ(planted.at("outcome"), "failure") << boost::json::serialize(planted);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  for (const auto& file : cached_files(cache, 0)) {
    EXPECT_EQ(file.find("planted"), std::string::npos) << file;
  }
  EXPECT_FALSE(std::filesystem::exists(data() / "transform-cache" / other));
  // The warm-up suite's transforms, kept when a primed runner got ready.
  const auto warm_up = cached_files(data() / "transform-cache" / "warm-up", 2);
  EXPECT_GE(warm_up.size(), 2u);
  for (const auto& file : warm_up) EXPECT_TRUE(file.starts_with("jest-transform-cache-")) << file;

  // /metrics counts what was kept, lent and refused.
  const auto files = static_cast<long>(kept.size());
  EXPECT_GE(metric("vouch_transform_cache_files_kept_total"),
            files + static_cast<long>(warm_up.size()));
  EXPECT_GE(metric("vouch_transform_cache_files_lent_total"), files);
  EXPECT_EQ(metric("vouch_transform_cache_refusals_total"), 1);
  EXPECT_EQ(metric("vouch_transform_cache_scopes"), 2);  // the project, the warm-up
  EXPECT_GT(metric("vouch_transform_cache_bytes"), 0);
}

// Runs posted while no runner is ready start runners unprimed, which compile
// Jest from V8's code cache that a primed runner wrote before any job
// (store::RunnerCodeCache): they report what a primed runner reports.
TEST_F(RunsTest, RunsPostedAtOnceStartRunnersFromTheCodeCache) {
  const auto project = create_project(0);
  const auto test = generated(project, {{"math.js", "exports.abs = (n) => (n < 0 ? -n : n);\n"}});
  // The primed runners of the start write it as they get ready.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (metric("vouch_runner_code_cache_bytes") <= 0 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_GT(metric("vouch_runner_code_cache_bytes"), 0);
  EXPECT_EQ(metric("vouch_runner_code_cache_lent_total"), 0);
  const auto primed = run_to_end(test);
  ASSERT_EQ(primed.at("outcome"), "success") << boost::json::serialize(primed);

  for (const auto& ended : run_at_once({test, test, test, test})) {
    EXPECT_EQ(ended.at("outcome"), "success") << boost::json::serialize(ended);
    EXPECT_EQ(ended.at("results"), primed.at("results"));
  }
  // Two ready runners took two runs; the others were started for the rest.
  EXPECT_GE(metric("vouch_runner_code_cache_lent_total"), 2);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(data() / "code-cache"),
                          std::filesystem::directory_iterator()),
            1);  // one Node.js major

  // Tested code writing a code cache where runners find theirs: never taken,
  // and the runs after it load as before.
  const auto held_now = [this] {
    std::map<std::filesystem::path, std::string> held;
    for (const auto& file : std::filesystem::directory_iterator(data() / "code-cache")) {
      std::ifstream in(file.path(), std::ios::binary);
      held[file.path()] = std::string(std::istreambuf_iterator<char>(in), {});
    }
    return held;
  };
  const auto bytes = metric("vouch_runner_code_cache_bytes");
  const auto held = held_now();
  const auto planting =
      generated(project, {{"plant.js",
                           "exports.plant = () => {\n"
                           "  require('fs').writeFileSync('.vouch-code-cache', 'planted');\n"
                           "  return 'planted';\n};\n"}});
  for (const auto& ended : run_at_once({planting, test, planting, test})) {
    EXPECT_EQ(ended.at("outcome"), "success") << boost::json::serialize(ended);
  }
  EXPECT_EQ(metric("vouch_runner_code_cache_bytes"), bytes);
  EXPECT_TRUE(held_now() == held);
  EXPECT_EQ(run_to_end(test).at("results"), primed.at("results"));
}

TEST_F(RunsTest, ARunCutShortByACrashEndsAsInterruptedAfterRestart) {
  const auto project = create_project(0);
  const auto test = generated(project, {{"spin.js", triggered("  for (;;) {}")}});
  // Install the trigger first, so the run below is surely executing when killed.
  run_to_end(test, kWithTrigger);
  auto response = start_run(test, kWithTrigger);
  ASSERT_EQ(response.status, 202u);
  const std::string run_id(json(response)["runId"].as_string());
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  server_->kill();
  server_.reset();
  start();
  auto run = wait_for_run(run_id, std::chrono::seconds(10));
  EXPECT_EQ(run["outcome"], "error");
  EXPECT_EQ(run["error"].at("code"), "interrupted");
  EXPECT_EQ(json(call("GET", "/v1/tests/" + test))["status"], "failed");
}

}  // namespace
}  // namespace vouch::testing
