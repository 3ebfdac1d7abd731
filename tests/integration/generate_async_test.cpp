// POST /v1/tests/generate with `Prefer: respond-async` (202, progress, the
// end as one event, a restart while it runs) and a run's JUnit report, against
// the real vouchd and its real generator and runners.
#include <cstdio>
#include <fstream>
#include <set>

#include "runner_fixture.hpp"

namespace vouch::testing {
namespace {

const RunnerTest::Files kSources = {
    {"src/math.js",
     "exports.abs = (n) => (n < 0 ? -n : n);\n"
     "exports.clamp = (n, lo, hi) => {\n  if (n < lo) return lo;\n"
     "  if (n > hi) return hi;\n  return n;\n};\n"
     "exports.sign = (n) => (n === 0 ? 0 : n > 0 ? 1 : -1);\n"},
    {"src/text.js",
     "exports.initials = (name) => name.split(' ').map((part) => part[0]).join('');\n"
     "exports.pad = (s, n) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);\n"}};

int count(const std::string& text, const std::string& what) {
  int found = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++found;
  return found;
}

class GenerateAsyncTest : public RunnerTest {
 protected:
  HttpResponse generate_async(const std::string& project, const Files& files,
                              const std::string& idempotency_key = "") {
    HttpRequest request;
    request.method = "POST";
    request.target = "/v1/tests/generate";
    request.key = VouchdProcess::kAdminKey;
    request.body = R"({"projectId":")" + project + R"(","files":)" + files_json(files) + "}";
    request.headers["Prefer"] = "respond-async";
    if (!idempotency_key.empty()) request.headers["Idempotency-Key"] = idempotency_key;
    return send(server_->port(), request);
  }

  // Reads the test until it is no longer generating; `phases` collects the
  // progress phases seen on the way.
  boost::json::object wait_for_generation(const std::string& test, std::set<std::string>* phases,
                                          std::chrono::seconds limit = std::chrono::seconds(180)) {
    return poll(
        "/v1/tests/" + test,
        [&](boost::json::object& body) {
          if (body["status"] != "generating") {
            EXPECT_FALSE(body.contains("progress")) << boost::json::serialize(body);
            return true;
          }
          const auto& progress = body.at("progress").as_object();
          EXPECT_LE(progress.at("filesDone").to_number<double>(),
                    progress.at("filesTotal").to_number<double>());
          if (phases) phases->insert(std::string(progress.at("phase").as_string()));
          return false;
        },
        limit,
        "test " + test + " was still generating after " + std::to_string(limit.count()) + " s");
  }
};

TEST_F(GenerateAsyncTest, RespondAsyncAnswers202ThenTheTestEndsAsTheSyncAnswerWould) {
  start();
  const auto project = create_project(0);
  auto accepted = generate_async(project, kSources, "async-key-1");
  ASSERT_EQ(accepted.status, 202u) << accepted.body;
  EXPECT_EQ(accepted.header("preference-applied"), "respond-async");
  auto test = json(accepted);
  const std::string id(test["testId"].as_string());
  EXPECT_EQ(accepted.header("location"), "/v1/tests/" + id);
  EXPECT_EQ(test["status"], "generating");
  EXPECT_TRUE(test["files"].as_array().empty());
  EXPECT_EQ(test["progress"].at("phase"), "queued");
  // Not runnable before its files exist.
  EXPECT_EQ(start_run(id).status, 409u);
  EXPECT_EQ(test["summary"].at("testsKept").to_number<double>(), 0);

  // The key replays the 202 and starts nothing.
  auto replayed = generate_async(project, kSources, "async-key-1");
  ASSERT_EQ(replayed.status, 202u) << replayed.body;
  EXPECT_EQ(replayed.header("idempotent-replayed"), "true");
  EXPECT_EQ(json(replayed)["testId"].as_string(), id);

  std::set<std::string> phases;
  auto done = wait_for_generation(id, &phases);
  EXPECT_EQ(done["status"], "pending") << boost::json::serialize(done);
  EXPECT_FALSE(done.contains("error"));
  ASSERT_FALSE(done["files"].as_array().empty()) << boost::json::serialize(done);
  EXPECT_GT(done["summary"].at("testsKept").to_number<double>(), 0);
  // The generator reported its phases while it ran.
  const std::set<std::string> generator_phases{"analysing", "loading",   "searching", "shrinking",
                                               "mutating",  "verifying", "writing"};
  bool saw_generator = false;
  for (const auto& phase : phases) saw_generator = saw_generator || generator_phases.count(phase);
  EXPECT_TRUE(saw_generator) << "phases seen: " << phases.size();

  // Listed once, in its place, and runnable like a synchronous one.
  auto listed = json(call("GET", "/v1/tests?projectId=" + project));
  ASSERT_EQ(listed["tests"].as_array().size(), 1u);
  EXPECT_EQ(listed["tests"].as_array()[0].at("status"), "pending");
  auto run = run_to_end(id);
  EXPECT_EQ(run["outcome"], "success") << boost::json::serialize(run);

  // The end is one TestGenerated, after the acceptance, in the test's stream.
  server_->terminate();
  auto replay = run_vouchd({"replay", "--data", data().string()});
  ASSERT_EQ(replay.status, 0) << replay.out;
  EXPECT_EQ(count(replay.out, "TestGenerationAccepted.v1"), 1) << replay.out;
  EXPECT_EQ(count(replay.out, "TestGenerated.v1"), 1) << replay.out;
  EXPECT_EQ(count(replay.out, "TestGenerationFailed.v1"), 0) << replay.out;
  EXPECT_LT(replay.out.find("TestGenerationAccepted.v1"), replay.out.find("TestGenerated.v1"));
}

TEST_F(GenerateAsyncTest, AGenerationThatFindsNoGeneratorEndsFailedWithTheError) {
  start({"--generators", "0", "--generation-queue-ms", "300", "--workers-listen", "127.0.0.1:0"});
  const auto project = create_project(0);
  auto accepted = generate_async(project, kSources);
  ASSERT_EQ(accepted.status, 202u) << accepted.body;
  const std::string id(json(accepted)["testId"].as_string());
  auto done = wait_for_generation(id, nullptr, std::chrono::seconds(60));
  EXPECT_EQ(done["status"], "failed") << boost::json::serialize(done);
  EXPECT_EQ(done["error"].at("code"), "unavailable") << boost::json::serialize(done);
  EXPECT_FALSE(std::string(done["error"].at("detail").as_string()).empty());
  EXPECT_TRUE(done["files"].as_array().empty());
  // Nothing to run.
  auto run = start_run(id);
  EXPECT_EQ(run.status, 409u) << run.body;
  EXPECT_NE(run.body.find("its generation failed"), std::string::npos) << run.body;
}

TEST_F(GenerateAsyncTest, ARestartDuringAGenerationEndsItFailedNeverGenerating) {
  start();
  const auto project = create_project(0);
  auto accepted = generate_async(project, kSources);
  ASSERT_EQ(accepted.status, 202u) << accepted.body;
  const std::string id(json(accepted)["testId"].as_string());
  // Wait until the generator itself works on it, then crash vouchd.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (;;) {
    auto test = json(call("GET", "/v1/tests/" + id));
    ASSERT_EQ(test["status"], "generating") << "ended before the restart";
    const std::string phase(test["progress"].at("phase").as_string());
    if (phase != "queued" && phase != "starting") break;
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "the generator never reported";
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  server_->kill();

  start();
  auto test = wait_for_generation(id, nullptr, std::chrono::seconds(30));
  EXPECT_EQ(test["status"], "failed") << boost::json::serialize(test);
  EXPECT_EQ(test["error"].at("code"), "interrupted");
  EXPECT_NE(std::string(test["error"].at("detail").as_string()).find("generate them again"),
            std::string::npos);

  // And again after a clean restart: the end was recorded once, not redone.
  server_->terminate();
  start();
  auto again = json(call("GET", "/v1/tests/" + id));
  EXPECT_EQ(again["status"], "failed");
  EXPECT_EQ(again["error"].at("code"), "interrupted");
}

// Tested code that behaves one way while `is-number` cannot be required
// (generation) and another once a run installs it: the run then fails.
const RunnerTest::Files kFlips = {
    {"flip.js",
     "exports.act = () => {\n  try { require('is-number'); } catch (e) { return 'dormant'; }\n"
     "  return 'awake';\n};\n"}};

TEST_F(GenerateAsyncTest, ARunsJUnitReportHasEveryTestAndPassesTheJenkinsSchema) {
  start({"--run-wall-ms", "20000"});
  const auto project = create_project(0);
  const auto test = generated(project, kFlips);
  auto run = run_to_end(test, R"({"dependencies":{"is-number":"7.0.0"}})");
  ASSERT_EQ(run["outcome"], "failure") << boost::json::serialize(run);
  const std::string run_id(run["runId"].as_string());
  const auto total = run["results"].at("total").to_number<double>();
  const auto failed = run["results"].at("failed").to_number<double>();
  ASSERT_GT(failed, 0);

  auto response = call("GET", "/v1/tests/results/" + run_id + "/junit.xml");
  ASSERT_EQ(response.status, 200u) << response.body;
  EXPECT_EQ(response.header("content-type"), "application/xml; charset=utf-8");
  const auto& xml = response.body;
  EXPECT_EQ(count(xml, "<testcase "), total) << xml;
  EXPECT_EQ(count(xml, "<failure "), failed) << xml;
  EXPECT_NE(xml.find("classname=\"__tests__/flip.test.js\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("awake"), std::string::npos) << "the failure's message";
  EXPECT_NE(xml.find("at "), std::string::npos) << "the failure's stack";
  EXPECT_EQ(json(call("GET", "/v1/tests/results/" + run_id + "/coverage"))["junitUrl"].as_string(),
            "/v1/tests/results/" + run_id + "/junit.xml");

  // Against the JUnit schema Jenkins validates with (xmllint: scripts/setup.sh installs it).
  const auto file = folder_.path() / "junit.xml";
  std::ofstream(file) << xml;
  const std::string command = "xmllint --noout --schema " + std::string(VOUCH_SOURCE_DIR) +
                              "/tests/junit/junit-10.xsd " + file.string() + " 2>&1";
  std::FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string said;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe)) said += buffer;
  EXPECT_EQ(::pclose(pipe), 0) << said;

  // A running or unknown run has none.
  EXPECT_EQ(call("GET", "/v1/tests/results/run_nope/junit.xml").status, 404u);
}

}  // namespace
}  // namespace vouch::testing
