#include <gtest/gtest.h>

#include "webhook_fixture.hpp"

namespace vouch::testing {
namespace {

class WebhooksApi : public WebhookTest {
 protected:
  void SetUp() override { start({"--webhook-retry-scale", "0.001"}); }

  std::string issue_key(const std::string& account, const std::string& scopes_json) {
    auto response =
        request("POST", "/v1/keys",
                R"({"account":")" + account + R"(","plan":"pro","scopes":)" + scopes_json + "}");
    EXPECT_EQ(response.status, 201u) << response.body;
    return str(json(response)["key"]);
  }
};

TEST_F(WebhooksApi, CreateAnswersTheRecordAndItsSecretOnce) {
  auto response = request(
      "POST", "/v1/webhooks",
      R"({"url":"https://hooks.example.com/in","events":["test.*","project.created"],"description":"ci"})");
  ASSERT_EQ(response.status, 201u) << response.body;
  auto body = json(response);
  const std::string id = str(body["id"]);
  EXPECT_EQ(id.rfind("whk_", 0), 0u);
  EXPECT_EQ(response.header("location"), "/v1/webhooks/" + id);
  EXPECT_EQ(str(body["secret"]).rfind("whsec_", 0), 0u);
  EXPECT_EQ(str(body["url"]), "https://hooks.example.com/in");
  EXPECT_EQ(body["events"].as_array().size(), 2u);
  EXPECT_EQ(str(body["description"]), "ci");
  EXPECT_TRUE(body["active"].as_bool());

  auto read = json(request("GET", "/v1/webhooks/" + id));
  EXPECT_EQ(str(read["id"]), id);
  EXPECT_FALSE(read.contains("secret"));
}

TEST_F(WebhooksApi, InvalidEventsAndUrlsAreRefusedNamingTheField) {
  auto bad_event =
      request("POST", "/v1/webhooks",
              R"({"url":"https://a.example/x","events":["project.created","tests.*"]})");
  ASSERT_EQ(bad_event.status, 400u);
  EXPECT_NE(bad_event.body.find("events[1]"), std::string::npos) << bad_event.body;
  EXPECT_NE(bad_event.body.find("tests.*"), std::string::npos);

  auto empty = request("POST", "/v1/webhooks", R"({"url":"https://a.example/x","events":[]})");
  ASSERT_EQ(empty.status, 400u);
  EXPECT_NE(empty.body.find("\"field\":\"events\""), std::string::npos) << empty.body;

  auto plain_http =
      request("POST", "/v1/webhooks", R"({"url":"http://a.example/x","events":["*"]})");
  ASSERT_EQ(plain_http.status, 400u);
  EXPECT_NE(plain_http.body.find("https"), std::string::npos) << plain_http.body;

  auto relative = request("POST", "/v1/webhooks", R"({"url":"/x","events":["*"]})");
  EXPECT_EQ(relative.status, 400u);
  auto missing = request("POST", "/v1/webhooks", R"({"events":["*"]})");
  ASSERT_EQ(missing.status, 400u);
  EXPECT_NE(missing.body.find("\"field\":\"url\""), std::string::npos);
}

TEST_F(WebhooksApi, UpdateIsPartialAndDeleteRemoves) {
  const auto hook = create_webhook("https://a.example/x", R"(["*"])");
  auto updated =
      request("PUT", "/v1/webhooks/" + hook.id, R"({"active":false,"events":["test.*"]})");
  ASSERT_EQ(updated.status, 200u) << updated.body;
  auto body = json(updated);
  EXPECT_FALSE(body["active"].as_bool());
  EXPECT_EQ(str(body["events"].as_array()[0]), "test.*");
  EXPECT_EQ(str(body["url"]), "https://a.example/x");
  EXPECT_FALSE(body.contains("secret"));

  EXPECT_EQ(request("PUT", "/v1/webhooks/" + hook.id, R"({"events":["nope"]})").status, 400u);
  EXPECT_EQ(request("DELETE", "/v1/webhooks/" + hook.id).status, 204u);
  EXPECT_EQ(request("GET", "/v1/webhooks/" + hook.id).status, 404u);
  EXPECT_EQ(request("PUT", "/v1/webhooks/" + hook.id, R"({"active":true})").status, 404u);
}

TEST_F(WebhooksApi, ListPagesOldestFirst) {
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i)
    ids.push_back(create_webhook("https://a.example/" + std::to_string(i), R"(["*"])").id);
  auto first = json(request("GET", "/v1/webhooks?limit=2"));
  ASSERT_EQ(first["webhooks"].as_array().size(), 2u);
  EXPECT_TRUE(first["hasMore"].as_bool());
  EXPECT_EQ(str(first["webhooks"].as_array()[0].as_object().at("id")), ids[0]);
  auto rest = json(request("GET", "/v1/webhooks?limit=10&startingAfter=" + ids[1]));
  ASSERT_EQ(rest["webhooks"].as_array().size(), 3u);
  EXPECT_FALSE(rest["hasMore"].as_bool());
  EXPECT_EQ(str(rest["webhooks"].as_array()[2].as_object().at("id")), ids[4]);
}

TEST_F(WebhooksApi, ScopesAndAccountsAreEnforced) {
  const auto hook = create_webhook("https://a.example/x", R"(["*"])");
  const auto reader = issue_key("admin", R"(["webhooks:read"])");
  EXPECT_EQ(request("GET", "/v1/webhooks/" + hook.id, "", reader).status, 200u);
  EXPECT_EQ(
      request("POST", "/v1/webhooks", R"({"url":"https://a.example/x","events":["*"]})", reader)
          .status,
      403u);
  EXPECT_EQ(request("POST", "/v1/webhooks/" + hook.id + "/rotate-secret", "", reader).status, 403u);

  const auto other = issue_key("acme", R"(["webhooks:read","webhooks:write"])");
  EXPECT_EQ(request("GET", "/v1/webhooks/" + hook.id, "", other).status, 404u);
  EXPECT_EQ(request("DELETE", "/v1/webhooks/" + hook.id, "", other).status, 404u);
  EXPECT_EQ(request("GET", "/v1/webhooks/" + hook.id + "/deliveries", "", other).status, 404u);
  EXPECT_EQ(request("POST", "/v1/webhooks/" + hook.id + "/rotate-secret", "", other).status, 404u);
  EXPECT_EQ(json(request("GET", "/v1/webhooks", "", other))["webhooks"].as_array().size(), 0u);
  EXPECT_EQ(request("GET", "/v1/webhooks", "", "vk_nope").status, 401u);
}

TEST_F(WebhooksApi, RotateSecretAnswersANewSecret) {
  const auto hook = create_webhook("https://a.example/x", R"(["*"])");
  auto rotated = request("POST", "/v1/webhooks/" + hook.id + "/rotate-secret");
  ASSERT_EQ(rotated.status, 200u) << rotated.body;
  const auto secret = str(json(rotated)["secret"]);
  EXPECT_EQ(secret.rfind("whsec_", 0), 0u);
  EXPECT_NE(secret, hook.secret);
}

}  // namespace
}  // namespace vouch::testing
