// POST /v1/tests/generate, GET /v1/tests/{id}, GET /v1/tests?projectId=,
// against the real vouchd and its real generator.
#include <future>

#include "runner_fixture.hpp"

namespace vouch::testing {
namespace {

using GenerateTest = RunnerTest;

// Branches, a loop, throws, an async function, a class, and a relative
// require between two uploaded files.
const RunnerTest::Files kModules = {
    {"src/pricing.js", R"(const { roundCents } = require('./util/money');
function discount(total, code) {
  if (typeof total !== 'number' || total < 0) throw new RangeError('total must be a non-negative number');
  if (code === 'HALF') return roundCents(total / 2);
  if (code === 'TENOFF') return total > 10 ? roundCents(total - 10) : 0;
  return total;
}
function sum(items) {
  let total = 0;
  for (const item of items) total += item.price * (item.quantity || 1);
  return roundCents(total);
}
async function quote(items, code) {
  if (!Array.isArray(items)) throw new TypeError('items must be an array');
  return { total: discount(sum(items), code), count: items.length };
}
class Cart {
  constructor(owner) { this.owner = owner; this.items = []; }
  add(name, price) {
    if (price <= 0) throw new Error('price must be positive');
    this.items.push({ name, price });
    return this.items.length;
  }
  get total() { return sum(this.items); }
}
module.exports = { discount, sum, quote, Cart };
)"},
    {"src/util/money.js", R"(exports.roundCents = (value) => Math.round(value * 100) / 100;
)"}};

TEST_F(GenerateTest, GeneratedTestsPassUnderJestAndReachTheStatedCoverage) {
  start();
  const auto project = create_project(80);
  auto response = generate(project, kModules);
  ASSERT_EQ(response.status, 201u) << response.body;
  EXPECT_FALSE(response.header("location").empty());
  auto test = json(response);
  EXPECT_EQ(test["status"], "pending");
  EXPECT_EQ(test["framework"], "jest");
  ASSERT_FALSE(test["files"].as_array().empty());
  bool has_test_file = false;
  for (const auto& file : test["files"].as_array()) {
    const std::string path(file.at("path").as_string());
    if (path.ends_with(".test.js")) {
      has_test_file = true;
      const std::string content(file.at("content").as_string());
      EXPECT_NE(content.find("expect("), std::string::npos) << "no assertion in " << path;
    }
  }
  EXPECT_TRUE(has_test_file);
  auto& summary = test["summary"].as_object();
  EXPECT_GE(summary["functionsFound"].to_number<double>(), 6);
  EXPECT_GT(summary["testsKept"].to_number<double>(), 5);
  const auto stated = summary["coverage"].as_object();
  EXPECT_GE(stated.at("statements").to_number<double>(), 90);
  EXPECT_GE(stated.at("branches").to_number<double>(), 75);
  EXPECT_TRUE(summary["problems"].as_array().empty()) << response.body;

  // Every returned test passes under Jest and reaches the stated coverage.
  auto run = run_passes(test);
  auto& results = run["results"].as_object();
  for (const char* metric : {"statements", "branches", "functions", "lines"}) {
    EXPECT_EQ(results["coverage"].at(metric).to_number<double>(),
              stated.at(metric).to_number<double>())
        << metric;
  }

  // Readable by id and listed under its project.
  auto read = call("GET", "/v1/tests/" + std::string(test["testId"].as_string()));
  ASSERT_EQ(read.status, 200u);
  EXPECT_EQ(json(read)["status"], "passed");
  auto listed = call("GET", "/v1/tests?projectId=" + project);
  ASSERT_EQ(listed.status, 200u);
  ASSERT_EQ(json(listed)["tests"].as_array().size(), 1u);
  EXPECT_EQ(json(listed)["hasMore"], false);
}

TEST_F(GenerateTest, ProblemsAreReportedPerFile) {
  start();
  const auto project = create_project();
  auto response = generate(project, {{"ok.js", "exports.twice = (n) => n * 2;\n"},
                                     {"broken.js", "function (\n  oops\n"},
                                     {"needs.js",
                                      "const x = require('left-pad-not-installed');\n"
                                      "exports.pad = (s) => x(s, 3);\n"},
                                     {"notes.txt", "not code"},
                                     {"types.d.ts", "export declare const n: number;\n"},
                                     {"App.jsx", "export const App = () => <p>hi</p>;\n"}});
  ASSERT_EQ(response.status, 201u) << response.body;
  auto problems = json(response)["summary"].as_object()["problems"].as_array();
  auto problem_of = [&](const std::string& path) -> boost::json::object {
    for (const auto& problem : problems) {
      if (problem.at("path").as_string() == path) return problem.as_object();
    }
    return {};
  };
  auto syntax = problem_of("broken.js");
  EXPECT_EQ(syntax["code"], "syntax_error") << response.body;
  EXPECT_EQ(syntax["line"].to_number<double>(), 1);
  EXPECT_GT(syntax["column"].to_number<double>(), 0);
  auto missing = problem_of("needs.js");
  EXPECT_EQ(missing["code"], "missing_module") << response.body;
  EXPECT_EQ(missing["module"], "left-pad-not-installed");
  // Data, text and declaration files are support files, written beside the
  // sources and never a problem; a source in another language (JSX) is one.
  EXPECT_TRUE(problem_of("notes.txt").empty()) << response.body;
  EXPECT_TRUE(problem_of("types.d.ts").empty()) << response.body;
  EXPECT_EQ(problem_of("App.jsx")["code"], "not_javascript") << response.body;
  EXPECT_TRUE(problem_of("ok.js").empty());
}

TEST_F(GenerateTest, BadGenerationRequestsAreRefusedAndNothingIsStored) {
  start();
  const auto project = create_project();
  const std::string ok_files = R"([{"path":"a.js","content":"exports.f = () => 1;"}])";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"files":)" + ok_files + "}", "projectId"},
      {R"({"projectId":")" + project + R"("})", "files"},
      {R"({"projectId":")" + project + R"(","files":[]})", "files"},
      {R"({"projectId":")" + project + R"(","files":"a.js"})", "files"},
      {R"({"projectId":")" + project + R"(","files":[{"path":"/etc/passwd","content":"x"}]})",
       "files[0].path"},
      {R"({"projectId":")" + project + R"(","files":[{"path":"../up.js","content":"x"}]})",
       "files[0].path"},
      {R"({"projectId":")" + project + R"(","files":[{"path":"a/../../b.js","content":"x"}]})",
       "files[0].path"},
      {R"({"projectId":")" + project + R"(","files":[{"path":"a.js","content":7}]})",
       "files[0].content"},
      {R"({"projectId":")" + project + R"(","files":[{"content":"x"}]})", "files[0].path"},
      {R"({"projectId":")" + project +
           R"(","files":[{"path":"a.js","content":"x"},{"path":"a.js","content":"y"}]})",
       "files[1].path"},
      {R"({"projectId":")" + project + R"(","files":[{"path":"a.txt","content":"x"}]})", "files"},
      {R"({"projectId":")" + project + R"(","files":)" + ok_files +
           R"(,"config":{"framework":"mocha"}})",
       "config.framework"},
      {R"({"projectId":")" + project + R"(","files":)" + ok_files +
           R"(,"config":{"coverage":{"threshold":150}}})",
       "config.coverage.threshold"},
      {R"({"projectId":7,"files":)" + ok_files + "}", "projectId"},
  };
  for (const auto& [body, field] : cases) {
    auto response = call("POST", "/v1/tests/generate", VouchdProcess::kAdminKey, body);
    EXPECT_EQ(response.status, 400u) << body << " → " << response.body;
    if (response.status == 400u) {
      EXPECT_EQ(field_of(response), field) << body;
    }
  }
  EXPECT_EQ(call("POST", "/v1/tests/generate", VouchdProcess::kAdminKey, "{not json").status, 400u);

  // An unknown project, and another account's, are both 404.
  EXPECT_EQ(generate("prj_missing", {{"a.js", "exports.f = () => 1;"}}).status, 404u);
  auto other = call(
      "POST", "/v1/keys", VouchdProcess::kAdminKey,
      R"({"account":"other","plan":"pro","scopes":["projects:write","tests:read","tests:write"]})");
  ASSERT_EQ(other.status, 201u);
  const std::string other_key(json(other)["key"].as_string());
  EXPECT_EQ(generate(project, {{"a.js", "exports.f = () => 1;"}}, other_key).status, 404u);

  // Nothing was stored.
  auto listed = call("GET", "/v1/tests?projectId=" + project);
  ASSERT_EQ(listed.status, 200u);
  EXPECT_TRUE(json(listed)["tests"].as_array().empty());
  EXPECT_EQ(call("GET", "/v1/tests").status, 400u);  // projectId is required
  EXPECT_EQ(call("GET", "/v1/tests/tst_missing").status, 404u);

  // A test is invisible to another account.
  const auto test = generated(project, {{"a.js", "exports.f = () => 1;"}});
  EXPECT_EQ(call("GET", "/v1/tests/" + test, other_key).status, 404u);
  EXPECT_EQ(call("GET", "/v1/tests/" + test).status, 200u);
}

TEST_F(GenerateTest, ABusyGeneratorPoolAnswers503WithRetryAfter) {
  start({"--generators", "1", "--generation-queue-ms", "100"});
  const auto project = create_project();
  // A module whose loading takes a while keeps the only generator busy.
  const Files slow = {{"slow.js",
                       "const end = Date.now() + 1500; while (Date.now() < end) {}\n"
                       "exports.f = (n) => n + 1;\n"}};
  auto first = std::async(std::launch::async, [&] { return generate(project, slow); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  auto second = generate(project, {{"b.js", "exports.g = () => 2;"}});
  EXPECT_EQ(second.status, 503u) << second.body;
  EXPECT_FALSE(second.header("retry-after").empty());
  EXPECT_EQ(json(second)["code"], "unavailable");
  EXPECT_NE(call("GET", "/metrics", "").body.find("vouch_generations_refused_total 1\n"),
            std::string::npos);
  EXPECT_EQ(first.get().status, 201u);
}

// SIGTERM while a generation outlasts the drain: the actors stop before the
// server they answer through, vouchd exits cleanly (no use after free: the
// sanitizer build runs this too) and the client gets an answer or a close.
TEST_F(GenerateTest, ShutdownWithAGenerationInFlightPastTheDrainEndsCleanly) {
  start({"--drain-timeout-s", "1"});
  const auto project = create_project();
  const Files slow = {{"slow.js",
                       "const end = Date.now() + 20000; while (Date.now() < end) {}\n"
                       "exports.f = (n) => n + 1;\n"}};
  auto in_flight = std::async(std::launch::async, [&] { return generate(project, slow); });
  // Wait until the generator holds it.
  for (int i = 0; i < 200; ++i) {
    if (call("GET", "/metrics", "").body.find("vouch_generations_running 1\n") !=
        std::string::npos) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const auto stopping = std::chrono::steady_clock::now();
  EXPECT_EQ(server_->terminate(), 0);
  EXPECT_LT(std::chrono::steady_clock::now() - stopping, std::chrono::seconds(10));
  const auto answer = in_flight.get();
  EXPECT_NE(answer.status, 201u) << answer.body;
}

}  // namespace
}  // namespace vouch::testing
