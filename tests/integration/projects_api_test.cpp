#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "api_fixture.hpp"

namespace vouch::testing {
namespace {

constexpr const char* kAdmin = VouchdProcess::kAdminKey;

TEST_F(ApiTest, ProjectLifecycle) {
  auto created = call("POST", "/v1/projects", kAdmin,
                      R"({"name":"shop","repository":"https://git.example/shop.git",
                          "config":{"framework":"jest"}})");
  ASSERT_EQ(created.status, 201u) << created.body;
  auto project = json(created);
  const std::string id(project["id"].as_string());
  EXPECT_EQ(id.rfind("prj_", 0), 0u);
  EXPECT_EQ(created.header("location"), "/v1/projects/" + id);
  EXPECT_EQ(project["config"].at("framework"), "jest");
  EXPECT_EQ(project["config"].at("coverage").at("threshold"), 80);
  EXPECT_EQ(project["repository"], "https://git.example/shop.git");
  EXPECT_FALSE(created.header("x-request-id").empty());

  auto read = call("GET", "/v1/projects/" + id, kAdmin);
  ASSERT_EQ(read.status, 200u);
  EXPECT_EQ(json(read), project);

  auto updated = call("PUT", "/v1/projects/" + id, kAdmin,
                      R"({"name":"shop-v2","config":{"coverage":{"threshold":92.5}}})");
  ASSERT_EQ(updated.status, 200u) << updated.body;
  EXPECT_EQ(json(updated)["name"], "shop-v2");
  EXPECT_EQ(json(updated)["config"].at("coverage").at("threshold"), 92.5);
  EXPECT_EQ(json(updated)["repository"], "https://git.example/shop.git");  // partial update
  EXPECT_EQ(json(call("GET", "/v1/projects/" + id, kAdmin))["name"], "shop-v2");

  auto listed = json(call("GET", "/v1/projects", kAdmin));
  ASSERT_EQ(listed["projects"].as_array().size(), 1u);
  EXPECT_EQ(listed["hasMore"], false);

  EXPECT_EQ(call("DELETE", "/v1/projects/" + id, kAdmin).status, 204u);
  EXPECT_EQ(call("GET", "/v1/projects/" + id, kAdmin).status, 404u);
  EXPECT_EQ(call("DELETE", "/v1/projects/" + id, kAdmin).status, 404u);
  EXPECT_EQ(call("PUT", "/v1/projects/" + id, kAdmin, R"({"name":"x"})").status, 404u);
  EXPECT_TRUE(json(call("GET", "/v1/projects", kAdmin))["projects"].as_array().empty());
}

TEST_F(ApiTest, ListPagesWithCursor) {
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i) ids.push_back(create_project(kAdmin, "p" + std::to_string(i)));
  auto first = json(call("GET", "/v1/projects?limit=2", kAdmin));
  ASSERT_EQ(first["projects"].as_array().size(), 2u);
  EXPECT_EQ(first["hasMore"], true);
  EXPECT_EQ(first["projects"].as_array()[0].at("id"), ids[0].c_str());
  auto second = json(call("GET", "/v1/projects?limit=2&startingAfter=" + ids[1], kAdmin));
  EXPECT_EQ(second["projects"].as_array()[0].at("id"), ids[2].c_str());
  auto last = json(call("GET", "/v1/projects?limit=2&startingAfter=" + ids[3], kAdmin));
  EXPECT_EQ(last["projects"].as_array().size(), 1u);
  EXPECT_EQ(last["hasMore"], false);
  for (const char* bad : {"?limit=0", "?limit=101", "?limit=abc", "?startingAfter=prj_nope"}) {
    auto response = call("GET", std::string("/v1/projects") + bad, kAdmin);
    EXPECT_EQ(response.status, 400u) << bad;
  }
}

// Every kind of bad input gets a clear 4xx problem and changes nothing.
TEST_F(ApiTest, BadInputIsRefusedAndChangesNothing) {
  const std::string id = create_project(kAdmin);
  struct Case {
    std::string method, target, body, content_type;
    unsigned status;
    std::string field;  // expected in errors[], when any
  };
  const std::vector<Case> cases{
      {"POST", "/v1/projects", "{not json", "application/json", 400, ""},
      {"POST", "/v1/projects", "[1,2]", "application/json", 400, ""},
      {"POST", "/v1/projects", "", "application/json", 400, ""},
      {"POST", "/v1/projects", R"({"repository":"x"})", "application/json", 400, "name"},
      {"POST", "/v1/projects", R"({"name":42})", "application/json", 400, "name"},
      {"POST", "/v1/projects", R"({"name":""})", "application/json", 400, "name"},
      {"POST", "/v1/projects", R"({"name":"a","config":"jest"})", "application/json", 400,
       "config"},
      {"POST", "/v1/projects", R"({"name":"a","config":{"framework":"mocha"}})", "application/json",
       400, "config.framework"},
      {"POST", "/v1/projects", R"({"name":"a","config":{"coverage":{"threshold":101}}})",
       "application/json", 400, "config.coverage.threshold"},
      {"POST", "/v1/projects", R"({"name":"a","config":{"coverage":{"threshold":"80"}}})",
       "application/json", 400, "config.coverage.threshold"},
      {"POST", "/v1/projects", R"({"name":"a"})", "text/plain", 415, ""},
      {"POST", "/v1/projects", R"({"name":"a"})", "", 415, ""},
      {"POST", "/v1/projects", R"({"name":")" + std::string(2 * 1024 * 1024, 'x') + R"("})",
       "application/json", 413, ""},
      {"PUT", "/v1/projects/" + id, R"({"config":{"coverage":{"threshold":-1}}})",
       "application/json", 400, "config.coverage.threshold"},
      {"PUT", "/v1/projects/" + id, R"({"repository":"other"})", "application/json", 400,
       "repository"},
      {"GET", "/v1/nothing-here", "", "", 404, ""},
      {"PATCH", "/v1/projects/" + id, R"({})", "application/json", 405, ""},
      {"POST", "/v1/projects/" + id, R"({})", "application/json", 405, ""},
  };
  for (const auto& c : cases) {
    HttpRequest request{c.method, c.target, kAdmin, c.body, c.content_type, {}};
    auto response = send(server_->port(), request);
    SCOPED_TRACE(c.method + " " + c.target + " " + c.body.substr(0, 80));
    ASSERT_EQ(response.status, c.status) << response.body;
    EXPECT_EQ(response.header("content-type"), "application/problem+json");
    auto problem = json(response);
    EXPECT_EQ(problem["status"], c.status);
    EXPECT_TRUE(problem["code"].is_string());
    EXPECT_TRUE(problem["detail"].is_string());
    if (c.status != 413) {
      EXPECT_EQ(problem["requestId"], response.header("x-request-id").c_str());
    }
    if (!c.field.empty()) {
      bool named = false;
      for (const auto& error : problem["errors"].as_array()) {
        named = named || error.at("field") == c.field.c_str();
      }
      EXPECT_TRUE(named) << response.body;
    }
    if (c.status == 405) {
      EXPECT_FALSE(response.header("allow").empty());
    }
  }
  auto listed = json(call("GET", "/v1/projects", kAdmin));
  ASSERT_EQ(listed["projects"].as_array().size(), 1u);
  EXPECT_EQ(listed["projects"].as_array()[0].at("name"), "shop");
  EXPECT_EQ(listed["projects"].as_array()[0].at("config").at("coverage").at("threshold"), 80);
}

TEST_F(ApiTest, AuthenticationAndPermissionMatrix) {
  const std::string acme = issue_key("acme", "pro", R"(["projects:read","projects:write"])");
  const std::string acme_reader = issue_key("acme", "pro", R"(["projects:read"])");
  const std::string globex = issue_key("globex", "free", R"(["projects:read","projects:write"])");
  const std::string project = create_project(acme);

  // 401: missing, malformed, unknown.
  EXPECT_EQ(call("GET", "/v1/projects", "").status, 401u);
  HttpRequest basic{"GET", "/v1/projects", "", "", "", {{"Authorization", "Basic abc"}}};
  EXPECT_EQ(send(server_->port(), basic).status, 401u);
  auto unknown = call("GET", "/v1/projects", "vk_0000");
  EXPECT_EQ(unknown.status, 401u);
  EXPECT_EQ(unknown.header("www-authenticate"), "Bearer");
  EXPECT_EQ(json(unknown)["code"], "unauthenticated");

  // 403: a valid key without the scope.
  auto forbidden = call("POST", "/v1/projects", acme_reader, R"({"name":"x"})");
  EXPECT_EQ(forbidden.status, 403u);
  EXPECT_EQ(json(forbidden)["code"], "forbidden");
  EXPECT_EQ(call("DELETE", "/v1/projects/" + project, acme_reader).status, 403u);
  EXPECT_EQ(call("GET", "/v1/projects/" + project, acme_reader).status, 200u);
  EXPECT_EQ(call("POST", "/v1/keys", acme, R"({"account":"x","scopes":["admin"]})").status, 403u);

  // 404: another account's project, whatever the verb.
  EXPECT_EQ(call("GET", "/v1/projects/" + project, globex).status, 404u);
  EXPECT_EQ(call("PUT", "/v1/projects/" + project, globex, R"({"name":"mine"})").status, 404u);
  EXPECT_EQ(call("DELETE", "/v1/projects/" + project, globex).status, 404u);
  EXPECT_TRUE(json(call("GET", "/v1/projects", globex))["projects"].as_array().empty());
  EXPECT_EQ(json(call("GET", "/v1/projects/" + project, acme))["name"], "shop");

  // A revoked key is refused from then on.
  auto issued =
      call("POST", "/v1/keys", kAdmin, R"({"account":"acme","scopes":["projects:read"]})");
  const auto record = json(issued);
  const std::string secret(record.at("key").as_string());
  EXPECT_EQ(call("GET", "/v1/projects", secret).status, 200u);
  const std::string key_id(record.at("id").as_string());
  EXPECT_EQ(call("DELETE", "/v1/keys/" + key_id, kAdmin).status, 204u);
  EXPECT_EQ(call("GET", "/v1/projects", secret).status, 401u);
  EXPECT_EQ(call("DELETE", "/v1/keys/key_unknown", kAdmin).status, 404u);
}

TEST_F(ApiTest, KeyIssuingValidatesItsInput) {
  auto bad = call("POST", "/v1/keys", kAdmin,
                  R"({"account":"Bad Name","plan":"gold","scopes":["projects:read","root"]})");
  ASSERT_EQ(bad.status, 400u) << bad.body;
  // plan is caught by the HTTP layer; account and scopes by the domain.
  EXPECT_GE(json(bad)["errors"].as_array().size(), 1u);
  EXPECT_EQ(call("POST", "/v1/keys", kAdmin, R"({"account":"acme"})").status, 400u);
}

TEST_F(ApiTest, FreePlanGetsSixtyRequestsAMinute) {
  const std::string key = issue_key("tiny", "free", R"(["projects:read"])");
  // Stay inside one UTC minute so the window cannot roll over mid-test.
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(
                           std::chrono::system_clock::now().time_since_epoch())
                           .count();
  if (seconds % 60 > 45) std::this_thread::sleep_for(std::chrono::seconds(61 - seconds % 60));
  for (int i = 1; i <= 60; ++i) {
    auto response = call("GET", "/v1/projects", key);
    ASSERT_EQ(response.status, 200u) << "request " << i;
    EXPECT_EQ(response.header("x-ratelimit-limit"), "60");
    EXPECT_EQ(response.header("x-ratelimit-remaining"), std::to_string(60 - i));
  }
  auto refused = call("GET", "/v1/projects", key);
  ASSERT_EQ(refused.status, 429u);
  EXPECT_EQ(json(refused)["code"], "rate_limited");
  EXPECT_EQ(refused.header("x-ratelimit-remaining"), "0");
  EXPECT_FALSE(refused.header("x-ratelimit-reset").empty());
  const int retry_after = std::stoi(refused.header("retry-after"));
  EXPECT_GE(retry_after, 1);
  EXPECT_LE(retry_after, 60);
  // Another account is unaffected.
  EXPECT_EQ(call("GET", "/v1/projects", kAdmin).status, 200u);
}

TEST_F(ApiTest, HealthNeedsNoKeyAndMetricsCount) {
  EXPECT_EQ(call("GET", "/healthz", "").status, 200u);
  EXPECT_EQ(call("GET", "/readyz", "").status, 200u);
  create_project(kAdmin);
  auto metrics = call("GET", "/metrics", "");
  EXPECT_NE(metrics.body.find("vouch_log_appends_total"), std::string::npos);
}

// A vouchd held to a 64 MiB budget.
class MemoryMetricsTest : public ApiTest {
 protected:
  void SetUp() override { start({"--memory-mb", "64"}); }
};

TEST_F(MemoryMetricsTest, MetricsShowTheBudgetAndWhatHoldsMemory) {
  // The budget and its shares (app/memory_budget.cpp).
  EXPECT_EQ(metric("vouch_memory_budget_bytes"), 64L << 20);
  EXPECT_EQ(metric("vouch_rocksdb_block_cache_capacity_bytes"), 16L << 20);
  EXPECT_EQ(metric("vouch_rocksdb_memtable_limit_bytes"), 8L << 20);
  EXPECT_EQ(metric("vouch_project_actors_max"), (64L << 20) / 16 / 2048);
  const long resident = metric("vouch_memory_resident_bytes");
  EXPECT_GT(resident, 4L << 20);
  EXPECT_LT(resident, 1L << 30);
  EXPECT_EQ(metric("vouch_project_actors_live"), 0);
  const long memos = metric("vouch_read_memo_bytes");
  EXPECT_GE(memos, 0);

  std::vector<std::string> ids;
  for (int i = 0; i < 20; ++i) ids.push_back(create_project(kAdmin, "p" + std::to_string(i)));
  for (const auto& id : ids) EXPECT_EQ(call("GET", "/v1/projects/" + id, kAdmin).status, 200u);

  // Each project created has its live actor, each project read is kept.
  EXPECT_EQ(metric("vouch_project_actors_live"), 20);
  EXPECT_GT(metric("vouch_read_memo_bytes"), memos + 20 * 50);
  // RocksDB's memtables hold the writes, charged to the block cache.
  const long memtables = metric("vouch_rocksdb_memtable_bytes");
  EXPECT_GT(memtables, 0);
  EXPECT_GE(metric("vouch_rocksdb_block_cache_bytes"), memtables);
  EXPECT_GT(metric("vouch_memory_resident_bytes"), 4L << 20);
}

TEST_F(ApiTest, SigtermDrainsAndExitsCleanly) {
  create_project(kAdmin);
  // With warm runners waiting in the pool, whose end must end them too.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (call("GET", "/metrics", "").body.find("vouch_runners_ready 2\n") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(server_->terminate(), 0);
  // No runner outlives the server.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  // (A runner's command line names its work folder inside the data folder.)
  const auto work = (data() / "work").string();
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream file(entry.path() / "cmdline");
    const std::string cmdline((std::istreambuf_iterator<char>(file)), {});
    EXPECT_EQ(cmdline.find(work), std::string::npos) << "still running: " << entry.path();
  }
}

}  // namespace
}  // namespace vouch::testing
