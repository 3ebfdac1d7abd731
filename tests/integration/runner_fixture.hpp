#pragma once

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "api_fixture.hpp"

namespace vouch::testing {

// A real vouchd with its real runners (Node.js, Jest, the sandbox), and
// helpers for generating tests and running them through the API.
class RunnerTest : public VouchdTest {
 public:
  using Files = std::vector<std::pair<std::string, std::string>>;  // path, content

  // The text of tests/fixtures/`path`: sources that other suites and benches
  // use too.
  static std::string fixture(const std::string& path) {
    std::ifstream file(std::string(VOUCH_SOURCE_DIR) + "/tests/fixtures/" + path, std::ios::binary);
    EXPECT_TRUE(file) << "no fixture " << path;
    return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  }

 protected:
  static std::string files_json(const Files& files) {
    boost::json::array array;
    for (const auto& [path, content] : files) {
      array.push_back(boost::json::object{{"path", path}, {"content", content}});
    }
    return boost::json::serialize(array);
  }

  std::string create_project(double threshold = 80,
                             const std::string& key = VouchdProcess::kAdminKey) {
    auto response = call(
        "POST", "/v1/projects", key,
        R"({"name":"p","config":{"coverage":{"threshold":)" + std::to_string(threshold) + "}}}");
    EXPECT_EQ(response.status, 201u) << response.body;
    return std::string(json(response)["id"].as_string());
  }

  HttpResponse generate(const std::string& project, const Files& files,
                        const std::string& key = VouchdProcess::kAdminKey) {
    return call("POST", "/v1/tests/generate", key,
                R"({"projectId":")" + project + R"(","files":)" + files_json(files) + "}");
  }

  // Generates and expects a 201; returns the test id.
  std::string generated(const std::string& project, const Files& files) {
    auto response = generate(project, files);
    EXPECT_EQ(response.status, 201u) << response.body;
    return std::string(json(response)["testId"].as_string());
  }

  HttpResponse start_run(const std::string& test, const std::string& environment = "{}",
                         const std::string& key = VouchdProcess::kAdminKey) {
    return call("POST", "/v1/tests/run", key,
                R"({"testId":")" + test + R"(","environment":)" + environment + "}");
  }

  // Reads GET `path` (200) every 50 ms until `done(body)`, for at most `limit`:
  // the last body, or {} and a failure saying `late`.
  boost::json::object poll(const std::string& path,
                           const std::function<bool(boost::json::object& body)>& done,
                           std::chrono::seconds limit, const std::string& late) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
      auto response = call("GET", path);
      EXPECT_EQ(response.status, 200u) << response.body;
      auto body = json(response);
      if (done(body)) return body;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ADD_FAILURE() << late;
    return {};
  }

  // Polls GET /v1/tests/results/{runId} until the run has completed.
  boost::json::object wait_for_run(const std::string& run,
                                   std::chrono::seconds limit = std::chrono::seconds(90)) {
    return poll(
        "/v1/tests/results/" + run,
        [](boost::json::object& body) { return body["status"] == "completed"; }, limit,
        "run " + run + " did not complete in time");
  }

  // Starts a run and waits for its end.
  boost::json::object run_to_end(const std::string& test, const std::string& environment = "{}") {
    auto response = start_run(test, environment);
    EXPECT_EQ(response.status, 202u) << response.body;
    auto started = json(response);
    EXPECT_EQ(started["status"], "running");
    EXPECT_TRUE(started["results"].is_null());
    return wait_for_run(std::string(started["runId"].as_string()));
  }

  // Starts a run of each test at once, in this order, then waits for each to
  // end; the runs as they ended.
  std::vector<boost::json::object> run_at_once(const std::vector<std::string>& tests) {
    std::vector<std::string> runs;
    for (const auto& test : tests) {
      auto response = start_run(test);
      EXPECT_EQ(response.status, 202u) << response.body;
      runs.emplace_back(json(response)["runId"].as_string());
    }
    std::vector<boost::json::object> ended;
    for (const auto& run : runs) ended.push_back(wait_for_run(run));
    return ended;
  }

  // Runs the generated suite `test` (a generate answer) to its end: it must
  // pass whole, with every kept test. Returns the run.
  boost::json::object run_passes(boost::json::object& test) {
    auto run = run_to_end(std::string(test["testId"].as_string()));
    EXPECT_EQ(run["outcome"], "success") << boost::json::serialize(run);
    auto& results = run["results"].as_object();
    EXPECT_EQ(results["failed"].to_number<double>(), 0) << boost::json::serialize(run);
    EXPECT_EQ(results["passed"].to_number<double>(),
              test["summary"].at("testsKept").to_number<double>());
    return run;
  }

  // The content of the generated file `path` in a generate answer.
  static std::string content_of(boost::json::object& test, const std::string& path) {
    for (const auto& file : test["files"].as_array()) {
      if (file.at("path").as_string() == path) return std::string(file.at("content").as_string());
    }
    ADD_FAILURE() << "no " << path << " among the generated files";
    return {};
  }

  static std::string field_of(const HttpResponse& response) {
    auto value = boost::json::parse(response.body);
    const auto& errors = value.at("errors").as_array();
    return errors.empty() ? "" : std::string(errors[0].at("field").as_string());
  }
};

}  // namespace vouch::testing
