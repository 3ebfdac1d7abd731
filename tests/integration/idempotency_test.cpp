// Idempotency keys through the API (Stripe's semantics; docs/decisions.md): a retry
// answers the first response without acting twice, across a kill -9; another
// request under a used key is 422; a duplicate while the first is in flight
// is 409; keys are per account.

#include <future>

#include "runner_fixture.hpp"

namespace vouch::testing {
namespace {

HttpResponse post(std::uint16_t port, const std::string& target, const std::string& body,
                  const std::string& idempotency_key,
                  const std::string& key = VouchdProcess::kAdminKey) {
  HttpRequest request;
  request.method = "POST";
  request.target = target;
  request.key = key;
  request.body = body;
  if (!idempotency_key.empty()) request.headers["Idempotency-Key"] = idempotency_key;
  return send(port, request);
}

std::size_t project_count(std::uint16_t port) {
  HttpRequest request;
  request.target = "/v1/projects?limit=100";
  request.key = VouchdProcess::kAdminKey;
  auto response = send(port, request);
  EXPECT_EQ(response.status, 200u) << response.body;
  return boost::json::parse(response.body).at("projects").as_array().size();
}

std::string code_of(const HttpResponse& response) {
  auto value = boost::json::parse(response.body);
  return std::string(value.at("code").as_string());
}

using IdempotencyTest = ApiTest;

TEST_F(IdempotencyTest, ARetryAnswersTheFirstResponseWithoutActingTwice) {
  const std::string body = R"({"name":"shop","repository":"https://git.example/shop.git"})";
  auto first = post(server_->port(), "/v1/projects", body, "order-7f3a");
  ASSERT_EQ(first.status, 201u) << first.body;
  EXPECT_EQ(first.header("idempotent-replayed"), "");

  auto again = post(server_->port(), "/v1/projects", body, "order-7f3a");
  ASSERT_EQ(again.status, 201u) << again.body;
  EXPECT_EQ(again.header("idempotent-replayed"), "true");
  EXPECT_EQ(again.body, first.body);
  EXPECT_EQ(again.header("location"), first.header("location"));
  EXPECT_FALSE(again.header("location").empty());
  EXPECT_NE(again.header("x-request-id"), first.header("x-request-id"));
  EXPECT_EQ(project_count(server_->port()), 1u);

  // The same key for another body, or another path, is a client error.
  auto other_body = post(server_->port(), "/v1/projects", R"({"name":"other"})", "order-7f3a");
  EXPECT_EQ(other_body.status, 422u) << other_body.body;
  EXPECT_EQ(code_of(other_body), "idempotency_key_reused");
  EXPECT_EQ(other_body.header("content-type"), "application/problem+json");
  auto other_path = post(server_->port(), "/v1/webhooks",
                         R"({"url":"https://hooks.example.com/x","events":["*"]})", "order-7f3a");
  EXPECT_EQ(other_path.status, 422u) << other_path.body;
  EXPECT_EQ(project_count(server_->port()), 1u);

  // Without a key, every POST acts.
  ASSERT_EQ(post(server_->port(), "/v1/projects", body, "").status, 201u);
  ASSERT_EQ(post(server_->port(), "/v1/projects", body, "").status, 201u);
  EXPECT_EQ(project_count(server_->port()), 3u);
}

TEST_F(IdempotencyTest, KeysBelongToTheirAccount) {
  const auto acme = issue_key("acme", "pro", R"(["projects:read","projects:write"])");
  const std::string body = R"({"name":"shop"})";
  auto admins = post(server_->port(), "/v1/projects", body, "shared-key");
  auto acmes = post(server_->port(), "/v1/projects", body, "shared-key", acme);
  ASSERT_EQ(admins.status, 201u);
  ASSERT_EQ(acmes.status, 201u);
  EXPECT_EQ(acmes.header("idempotent-replayed"), "");
  EXPECT_NE(json(admins)["id"], json(acmes)["id"]);
}

TEST_F(IdempotencyTest, ErrorsRecordNothingAndBadKeysAreRefused) {
  auto invalid = post(server_->port(), "/v1/projects", R"({"name":""})", "retry-me");
  EXPECT_EQ(invalid.status, 400u) << invalid.body;
  // The key stays free: the corrected request acts, under the same key.
  auto fixed = post(server_->port(), "/v1/projects", R"({"name":"ok"})", "retry-me");
  EXPECT_EQ(fixed.status, 201u) << fixed.body;
  EXPECT_EQ(fixed.header("idempotent-replayed"), "");

  auto too_long = post(server_->port(), "/v1/projects", R"({"name":"x"})", std::string(256, 'k'));
  EXPECT_EQ(too_long.status, 400u) << too_long.body;
  EXPECT_NE(too_long.body.find("Idempotency-Key"), std::string::npos) << too_long.body;
  EXPECT_EQ(project_count(server_->port()), 1u);
}

TEST_F(IdempotencyTest, RecordedResponsesSurviveKillNine) {
  const std::string body = R"({"name":"durable"})";
  auto first = post(server_->port(), "/v1/projects", body, "crash-safe");
  ASSERT_EQ(first.status, 201u) << first.body;
  server_->kill();
  start();
  auto again = post(server_->port(), "/v1/projects", body, "crash-safe");
  ASSERT_EQ(again.status, 201u) << again.body;
  EXPECT_EQ(again.header("idempotent-replayed"), "true");
  EXPECT_EQ(again.body, first.body);
  EXPECT_EQ(project_count(server_->port()), 1u);
  auto mismatch = post(server_->port(), "/v1/projects", R"({"name":"other"})", "crash-safe");
  EXPECT_EQ(mismatch.status, 422u);
}

class IdempotentGenerationTest : public RunnerTest {};

TEST_F(IdempotentGenerationTest, ADuplicateWhileTheFirstIsInFlightIs409) {
  start({"--generators", "1"});
  const auto project = create_project();
  const std::string body =
      R"({"projectId":")" + project + R"(","files":)" +
      files_json({{"src/abs.js", "exports.abs = (n) => (n < 0 ? -n : n);\n"}}) + "}";
  const auto port = server_->port();
  auto first = std::async(std::launch::async,
                          [&] { return post(port, "/v1/tests/generate", body, "gen-1"); });
  // Once the generation is running, the first request holds its key.
  bool running = false;
  for (int i = 0; i < 600 && !running; ++i) {
    running =
        call("GET", "/metrics", "").body.find("vouch_generations_running 1\n") != std::string::npos;
    if (!running) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_TRUE(running);
  auto duplicate = post(port, "/v1/tests/generate", body, "gen-1");
  EXPECT_EQ(duplicate.status, 409u) << duplicate.body;
  EXPECT_EQ(code_of(duplicate), "idempotency_key_in_use");
  EXPECT_FALSE(duplicate.header("retry-after").empty());

  auto generated = first.get();
  ASSERT_EQ(generated.status, 201u) << generated.body;
  auto replayed = post(port, "/v1/tests/generate", body, "gen-1");
  ASSERT_EQ(replayed.status, 201u) << replayed.body;
  EXPECT_EQ(replayed.header("idempotent-replayed"), "true");
  EXPECT_EQ(json(replayed)["testId"], json(generated)["testId"]);
  auto tests = json(call("GET", "/v1/tests?projectId=" + project));
  EXPECT_EQ(tests["tests"].as_array().size(), 1u);
}

}  // namespace
}  // namespace vouch::testing
