#include <gtest/gtest.h>

#include <thread>

#include "api_fixture.hpp"

namespace vouch::testing {
namespace {

constexpr const char* kAdmin = VouchdProcess::kAdminKey;

// Many concurrent creates, kill -9 while they run, restart on the same
// folder: every create answered 201 is there, and the read models equal a
// rebuild from the log.
TEST(Durability, EveryAcknowledgedCreateSurvivesKillNine) {
  TempFolder folder;
  const auto data = folder.path() / "data";
  std::vector<std::string> acknowledged;
  {
    VouchdProcess server(data);
    ProjectCreators creators(server.port(), 8, 2000);
    // Let the load run, then crash the server in the middle of it.
    for (int waited = 0; waited < 100; ++waited) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if (creators.acknowledged().size() >= 200) break;
    }
    server.kill();
    creators.stop();
    acknowledged = creators.acknowledged();
  }
  ASSERT_GE(acknowledged.size(), 50u);

  {
    VouchdProcess restarted(data);
    std::size_t listed = 0;
    std::string cursor;
    for (;;) {
      HttpRequest request{
          "GET",
          "/v1/projects?limit=100" + (cursor.empty() ? std::string() : "&startingAfter=" + cursor),
          kAdmin,
          "",
          "",
          {}};
      auto page = boost::json::parse(send(restarted.port(), request).body).as_object();
      const auto& items = page["projects"].as_array();
      listed += items.size();
      if (items.empty() || !page["hasMore"].as_bool()) break;
      cursor = std::string(items.back().at("id").as_string());
    }
    EXPECT_GE(listed, acknowledged.size());
    for (const auto& id : acknowledged) {
      HttpRequest request{"GET", "/v1/projects/" + id, kAdmin, "", "", {}};
      ASSERT_EQ(send(restarted.port(), request).status, 200u) << id << " was acknowledged but lost";
    }
    EXPECT_EQ(restarted.terminate(), 0);
  }
  auto verify = run_vouchd({"replay", "--data", data.string(), "--verify"});
  EXPECT_EQ(verify.status, 0);
  EXPECT_NE(verify.out.find("ProjectCreated.v1"), std::string::npos);
}

TEST(Commands, KeysCreateIssuesAWorkingKey) {
  TempFolder folder;
  const auto data = folder.path() / "data";
  {
    VouchdProcess first(data);  // bootstraps the admin account
    EXPECT_EQ(first.terminate(), 0);
  }
  auto created = run_vouchd({"keys", "create", "--data", data.string(), "--account", "ci", "--plan",
                             "pro", "--scopes", "projects:read,projects:write"});
  ASSERT_EQ(created.status, 0) << created.out;
  auto issued = boost::json::parse(created.out).as_object();
  EXPECT_EQ(issued["plan"], "pro");
  const std::string key(issued["key"].as_string());

  VouchdProcess server(data);
  HttpRequest request{"POST", "/v1/projects", key, R"({"name":"from-cli"})", "application/json",
                      {}};
  auto response = send(server.port(), request);
  EXPECT_EQ(response.status, 201u) << response.body;
  EXPECT_EQ(response.header("x-ratelimit-limit"), "300");

  auto bad = run_vouchd({"keys", "create", "--data", data.string() + "-other", "--account", "ci",
                         "--scopes", "nonsense"});
  EXPECT_NE(bad.status, 0);
}

}  // namespace
}  // namespace vouch::testing
