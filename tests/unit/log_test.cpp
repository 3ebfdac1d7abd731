#include "log/log.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/json/parse.hpp>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>

#include "temp_folder.hpp"

namespace vouch::log {
namespace {

// The lines the log writes to stderr while `body` runs.
template <class Body>
std::vector<std::string> lines_written(const std::filesystem::path& file, Body body) {
  flush();
  std::fflush(stderr);
  const int saved = ::dup(STDERR_FILENO);
  std::FILE* sink = std::fopen(file.c_str(), "w");
  ::dup2(::fileno(sink), STDERR_FILENO);
  body();
  flush();
  ::dup2(saved, STDERR_FILENO);
  ::close(saved);
  std::fclose(sink);
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(Log, ALineIsOneJsonObjectWithTimeLevelComponentMessageAndFields) {
  testing::TempFolder temp;
  const auto lines = lines_written(temp.path() / "stderr", [] {
    warn("http", "a \"quoted\"\nmessage", {{"requestId", "req_1"}, {"status", 503}, {"msg", "x"}});
    info("access", "GET /v1/projects/{id} 200");
  });
  ASSERT_EQ(lines.size(), 2u);
  const auto first = boost::json::parse(lines[0]).as_object();
  EXPECT_TRUE(std::regex_match(std::string(first.at("time").as_string()),
                               std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)")))
      << lines[0];
  EXPECT_EQ(first.at("level"), "warn");
  EXPECT_EQ(first.at("component"), "http");
  EXPECT_EQ(first.at("msg"), "a \"quoted\"\nmessage");  // a field cannot replace it
  EXPECT_EQ(first.at("requestId"), "req_1");
  EXPECT_EQ(first.at("status"), 503);
  EXPECT_EQ(first.size(), 6u);
  EXPECT_EQ(boost::json::parse(lines[1]).at("level"), "info");
}

}  // namespace
}  // namespace vouch::log
