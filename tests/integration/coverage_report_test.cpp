// A completed run's coverage report through the API: the lcov file parsed
// and held against the run's figures, the istanbul JSON, the HTML pages, and
// who may read them.

#include <sstream>

#include "runner_fixture.hpp"

namespace vouch::testing {
namespace {

// lcov's per-file line totals: source file → {lines found, lines hit}.
struct LcovFile {
  long found = 0;
  long hit = 0;
  long line_records = 0;  // DA: lines
};

std::map<std::string, LcovFile> parse_lcov(const std::string& text) {
  std::map<std::string, LcovFile> files;
  std::istringstream in(text);
  std::string line, current;
  while (std::getline(in, line)) {
    if (line.rfind("SF:", 0) == 0) {
      current = line.substr(3);
      files[current];
    } else if (line.rfind("DA:", 0) == 0) {
      ++files[current].line_records;
    } else if (line.rfind("LF:", 0) == 0) {
      files[current].found = std::stol(line.substr(3));
    } else if (line.rfind("LH:", 0) == 0) {
      files[current].hit = std::stol(line.substr(3));
    } else if (line == "end_of_record") {
      current.clear();
    }
  }
  return files;
}

class CoverageReportTest : public RunnerTest {
 protected:
  void SetUp() override { start({"--run-wall-ms", "8000", "--run-cpu-seconds", "12"}); }
};

TEST_F(CoverageReportTest, ACompletedRunServesLcovIstanbulJsonAndHtml) {
  const auto project = create_project(0);
  const auto test =
      generated(project, {{"src/math.js",
                           "exports.abs = (n) => (n < 0 ? -n : n);\n"
                           "exports.clamp = (n, lo, hi) => {\n  if (n < lo) return lo;\n"
                           "  if (n > hi) return hi;\n  return n;\n};\n"}});
  auto run = run_to_end(test);
  ASSERT_EQ(run["status"], "completed");
  const std::string run_id(run["runId"].as_string());
  const auto lines_pct = run["results"].at("coverage").at("lines").to_number<double>();

  auto summary = call("GET", "/v1/tests/results/" + run_id + "/coverage");
  ASSERT_EQ(summary.status, 200u) << summary.body;
  auto report = json(summary);
  EXPECT_EQ(report["runId"].as_string(), run_id);
  const auto lcov = parse_lcov(std::string(report["lcov"].as_string()));
  ASSERT_EQ(lcov.count("src/math.js"), 1u) << report["lcov"].as_string();
  const auto& math = lcov.at("src/math.js");
  EXPECT_GT(math.found, 0);
  EXPECT_EQ(math.line_records, math.found);
  EXPECT_NEAR(100.0 * static_cast<double>(math.hit) / static_cast<double>(math.found), lines_pct,
              0.01);
  // The istanbul JSON holds the file's statement map and counts.
  bool found_math = false;
  for (const auto& [path, file] : report["istanbul"].as_object()) {
    if (std::string(path).ends_with("src/math.js")) {
      found_math = true;
      EXPECT_FALSE(file.at("statementMap").as_object().empty());
      EXPECT_FALSE(file.at("s").as_object().empty());
    }
  }
  EXPECT_TRUE(found_math);

  auto lcov_file = call("GET", "/v1/tests/results/" + run_id + "/coverage/lcov.info");
  ASSERT_EQ(lcov_file.status, 200u);
  EXPECT_EQ(lcov_file.header("content-type"), "text/plain; charset=utf-8");
  EXPECT_EQ(lcov_file.body, std::string(report["lcov"].as_string()));

  auto index = call("GET", std::string(report["htmlUrl"].as_string()));
  ASSERT_EQ(index.status, 200u) << index.body;
  EXPECT_EQ(index.header("content-type"), "text/html; charset=utf-8");
  EXPECT_NE(index.header("content-security-policy").find("sandbox"), std::string::npos);
  EXPECT_NE(index.body.find("math.js"), std::string::npos);
  // The index links each source's page (istanbul flattens a single common folder).
  const auto link_end = index.body.find("math.js.html\"");
  ASSERT_NE(link_end, std::string::npos) << index.body;
  const auto link_start = index.body.rfind('"', link_end) + 1;
  const auto link = index.body.substr(link_start, link_end + 12 - link_start);
  auto page = call("GET", "/v1/tests/results/" + run_id + "/coverage/html/" + link);
  ASSERT_EQ(page.status, 200u);
  EXPECT_NE(page.body.find("clamp"), std::string::npos);
  EXPECT_EQ(call("GET", "/v1/tests/results/" + run_id + "/coverage/html/nope.html").status, 404u);
  EXPECT_GE(call("GET", "/v1/tests/results/" + run_id + "/coverage/html/../../x").status, 400u);

  // Another account's run is not found; the scope is needed.
  auto other = call("POST", "/v1/keys", VouchdProcess::kAdminKey,
                    R"({"account":"other","plan":"pro","scopes":["tests:read"]})");
  const std::string other_key(json(other)["key"].as_string());
  EXPECT_EQ(call("GET", "/v1/tests/results/" + run_id + "/coverage", other_key).status, 404u);
  auto no_scope = call("POST", "/v1/keys", VouchdProcess::kAdminKey,
                       R"({"account":"admin","plan":"pro","scopes":["projects:read"]})");
  EXPECT_EQ(call("GET", "/v1/tests/results/" + run_id + "/coverage",
                 std::string(json(no_scope)["key"].as_string()))
                .status,
            403u);
  EXPECT_EQ(call("GET", "/v1/tests/results/run_000000000000000000000000/coverage").status, 404u);

  // The report outlives a restart.
  ASSERT_EQ(server_->terminate(), 0);
  SetUp();
  EXPECT_EQ(call("GET", "/v1/tests/results/" + run_id + "/coverage/lcov.info").body,
            lcov_file.body);
}

}  // namespace
}  // namespace vouch::testing
