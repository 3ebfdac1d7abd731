#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "webhook_fixture.hpp"

namespace vouch::testing {
namespace {

class WebhookDelivery : public WebhookTest {};

std::int64_t received_at(const boost::json::value& request) {
  return request.as_object().at("receivedAt").to_number<std::int64_t>();
}

// Every request of `name` carries valid x-service and Standard Webhooks
// signatures for `secret`, checked by the receiver (node:crypto, standardwebhooks).
void expect_signed(const ReceiverProcess& receiver, const std::string& name,
                   const std::string& secret) {
  auto checks = receiver.verify(name, {secret});
  ASSERT_FALSE(checks.empty()) << name;
  for (const auto& check : checks) {
    const auto& result = check.as_object().at("checks").as_array()[0].as_object();
    EXPECT_TRUE(result.at("service").as_bool()) << name << " " << boost::json::serialize(check);
    EXPECT_TRUE(result.at("standard").as_bool()) << name << " " << boost::json::serialize(check);
  }
}

TEST_F(WebhookDelivery, PatternsSelectEventsAndInactiveWebhooksGetNone) {
  start(local_flags());
  const auto all = create_webhook(receiver_url("all"), R"(["*"])");
  const auto created_only = create_webhook(receiver_url("created"), R"(["project.created"])");
  const auto projects = create_webhook(receiver_url("projects"), R"(["project.*"])");
  const auto tests = create_webhook(receiver_url("tests"), R"(["test.*"])");
  const auto inactive = create_webhook(receiver_url("inactive"), R"(["*"])");
  ASSERT_EQ(request("PUT", "/v1/webhooks/" + inactive.id, R"({"active":false})").status, 200u);

  const auto project = create_project("alpha");
  ASSERT_EQ(request("PUT", "/v1/projects/" + project, R"({"name":"beta"})").status, 200u);
  ASSERT_EQ(request("DELETE", "/v1/projects/" + project).status, 204u);

  // Each event goes to every webhook it selects at once, and a delivery is
  // logged after its receiver answered: once the selected webhooks' logs are
  // complete, whatever else was sent has arrived too.
  ASSERT_TRUE(wait_until(
      [&] {
        return deliveries(all.id).size() == 3 && deliveries(projects.id).size() == 3 &&
               deliveries(created_only.id).size() == 1;
      },
      std::chrono::seconds(30)));
  EXPECT_EQ(receiver_->requests("all").size(), 3u);
  EXPECT_EQ(receiver_->requests("projects").size(), 3u);
  EXPECT_EQ(receiver_->requests("created").size(), 1u);
  EXPECT_EQ(receiver_->requests("tests").size(), 0u);
  EXPECT_EQ(receiver_->requests("inactive").size(), 0u);

  std::vector<std::string> types;
  for (const auto& request : receiver_->requests("all")) {
    const auto& headers = request.as_object().at("headers").as_object();
    EXPECT_EQ(str(headers.at("content-type")), "application/json");
    auto body = boost::json::parse(str(request.as_object().at("body"))).as_object();
    EXPECT_EQ(str(body["id"]), str(headers.at("webhook-id")));
    EXPECT_EQ(str(headers.at("webhook-timestamp")), str(headers.at("x-service-timestamp")));
    EXPECT_EQ(str(body["data"].as_object()["id"]), project);
    EXPECT_EQ(str(body["created"]).size(), 24u);
    types.push_back(str(body["type"]));
  }
  std::sort(types.begin(), types.end());
  EXPECT_EQ(types,
            (std::vector<std::string>{"project.created", "project.deleted", "project.updated"}));
  expect_signed(*receiver_, "all", all.secret);
  expect_signed(*receiver_, "created", created_only.secret);
  expect_signed(*receiver_, "projects", projects.secret);

  // A secret that is not the webhook's does not verify: the check can fail.
  auto wrong = receiver_->verify("created", {projects.secret});
  ASSERT_EQ(wrong.size(), 1u);
  EXPECT_FALSE(wrong[0].as_object().at("checks").as_array()[0].as_object().at("service").as_bool());
  EXPECT_FALSE(
      wrong[0].as_object().at("checks").as_array()[0].as_object().at("standard").as_bool());

  auto log = deliveries(all.id);
  ASSERT_EQ(log.size(), 3u);
  // Attempts run concurrently, so the log's order (newest attempt first) is
  // not the events' order: find the deletion's entry.
  std::set<std::string> logged;
  for (const auto& entry : log) logged.insert(str(entry.as_object().at("event")));
  EXPECT_EQ(logged,
            (std::set<std::string>{"project.created", "project.deleted", "project.updated"}));
  const auto deleted = std::find_if(log.begin(), log.end(), [](const boost::json::value& entry) {
    return str(entry.as_object().at("event")) == "project.deleted";
  });
  ASSERT_NE(deleted, log.end());
  const auto& newest = deleted->as_object();
  EXPECT_EQ(newest.at("status").as_int64(), 200);
  EXPECT_TRUE(newest.at("success").as_bool());
  EXPECT_EQ(newest.at("attempt").as_int64(), 1);
  EXPECT_TRUE(newest.at("error").is_null());
  EXPECT_TRUE(newest.at("nextAttempt").is_null());
  EXPECT_EQ(str(newest.at("url")), receiver_url("all"));
  EXPECT_EQ(str(newest.at("id")).rfind("dlv_", 0), 0u);
  EXPECT_TRUE(newest.at("duration").is_int64());
  EXPECT_EQ(deliveries(tests.id).size(), 0u);
}

TEST_F(WebhookDelivery, FailuresAreRetriedOnTheScaledSchedule) {
  start(local_flags("0.001"));  // 5 s → 5 ms, 5 min → 300 ms, 30 min → 1.8 s (±20 % jitter)
  const auto hook = create_webhook(receiver_url("retry", "failFirst=3&failStatus=503"), R"(["*"])");
  create_project();
  ASSERT_TRUE(wait_until([&] { return receiver_->requests("retry").size() == 4; },
                         std::chrono::seconds(10)));
  auto requests = receiver_->requests("retry");
  const auto gap = [&](std::size_t i) {
    return received_at(requests[i]) - received_at(requests[i - 1]);
  };
  EXPECT_LE(gap(1), 250);
  EXPECT_GE(gap(2), 240);
  EXPECT_LE(gap(2), 360 + 250);
  EXPECT_GE(gap(3), 1440);
  EXPECT_LE(gap(3), 2160 + 250);
  std::set<std::string> ids;
  for (const auto& request : requests) ids.insert(str(request.as_object().at("eventId")));
  EXPECT_EQ(ids.size(), 1u);  // the same webhook-id on every attempt
  expect_signed(*receiver_, "retry", hook.secret);

  ASSERT_TRUE(wait_until([&] { return deliveries(hook.id).size() == 4; }));
  auto log = deliveries(hook.id);
  for (std::size_t i = 0; i < 4; ++i) {
    const auto& entry = log[3 - i].as_object();  // newest first
    EXPECT_EQ(entry.at("attempt").as_int64(), static_cast<std::int64_t>(i + 1));
    if (i < 3) {
      EXPECT_EQ(entry.at("status").as_int64(), 503);
      EXPECT_FALSE(entry.at("success").as_bool());
      EXPECT_TRUE(entry.at("nextAttempt").is_string());
      EXPECT_NE(str(entry.at("error")).find("503"), std::string::npos);
    } else {
      EXPECT_TRUE(entry.at("success").as_bool());
      EXPECT_TRUE(entry.at("nextAttempt").is_null());
    }
  }
}

TEST_F(WebhookDelivery, RetryAfterIsHonoured) {
  start(local_flags("0.001"));  // the schedule alone would retry after about 5 ms
  create_webhook(receiver_url("busy", "failFirst=1&failStatus=429&retryAfter=1"), R"(["*"])");
  create_project();
  ASSERT_TRUE(wait_until([&] { return receiver_->requests("busy").size() == 2; }));
  auto requests = receiver_->requests("busy");
  EXPECT_GE(received_at(requests[1]) - received_at(requests[0]), 1000);
  EXPECT_EQ(requests[0].as_object().at("status").as_int64(), 429);
}

TEST_F(WebhookDelivery, RedirectsFailWithoutBeingFollowedAndGoneDisables) {
  start(local_flags());
  const auto moved = create_webhook(receiver_url("moved", "status=302"), R"(["*"])");
  const auto gone = create_webhook(receiver_url("gone", "status=410"), R"(["*"])");
  create_project("one");
  // A redirect is a failed attempt, retried on the (scaled) schedule, never followed.
  ASSERT_TRUE(wait_until([&] {
    return deliveries(moved.id).size() >= 2 && deliveries(gone.id).size() == 1 &&
           !json(request("GET", "/v1/webhooks/" + gone.id))["active"].as_bool();
  }));
  const auto log = deliveries(moved.id);
  auto first = log[log.size() - 1].as_object();  // newest first
  EXPECT_EQ(first.at("status").as_int64(), 302);
  EXPECT_EQ(first.at("attempt").as_int64(), 1);
  EXPECT_FALSE(first.at("success").as_bool());
  EXPECT_FALSE(first.at("nextAttempt").is_null());
  EXPECT_NE(str(first.at("error")).find("redirect"), std::string::npos);
  EXPECT_EQ(log[log.size() - 2].as_object().at("attempt").as_int64(), 2);
  EXPECT_EQ(receiver_->requests("moved-redirected").size(), 0u);

  auto gone_record = json(request("GET", "/v1/webhooks/" + gone.id));
  EXPECT_FALSE(gone_record["active"].as_bool());
  EXPECT_NE(str(gone_record["disabledReason"]).find("410"), std::string::npos);

  create_project("two");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(receiver_->requests("gone").size(), 1u);  // disabled: the second event is not sent
}

TEST_F(WebhookDelivery, TimeoutsAreRetriedAndASlowReceiverDelaysNoOther) {
  auto flags = local_flags();
  flags.insert(flags.end(), {"--webhook-timeout", "400"});
  start(flags);
  const auto slow = create_webhook(receiver_url("slow", "delay=1500&delayFirst=1"), R"(["*"])");
  create_webhook(receiver_url("fast"), R"(["*"])");
  create_project();
  ASSERT_TRUE(wait_until([&] { return receiver_->requests("fast").size() == 1; },
                         std::chrono::milliseconds(300)));  // not behind the slow one
  ASSERT_TRUE(wait_until([&] { return deliveries(slow.id).size() == 2; }));
  auto log = deliveries(slow.id);
  const auto& first = log[1].as_object();
  EXPECT_EQ(first.at("status").as_int64(), 0);
  EXPECT_NE(str(first.at("error")).find("timed out"), std::string::npos) << str(first.at("error"));
  EXPECT_GE(first.at("duration").as_int64(), 390);
  EXPECT_TRUE(log[0].as_object().at("success").as_bool());
}

TEST_F(WebhookDelivery, RotationSignsWithBothSecretsAndRedeliverySendsAgain) {
  start(local_flags());
  const auto hook = create_webhook(receiver_url("rotated"), R"(["*"])");
  create_project("before");
  ASSERT_TRUE(wait_until([&] { return receiver_->requests("rotated").size() == 1; }));
  auto rotated = request("POST", "/v1/webhooks/" + hook.id + "/rotate-secret");
  ASSERT_EQ(rotated.status, 200u);
  const auto new_secret = str(json(rotated)["secret"]);
  create_project("after");
  ASSERT_TRUE(wait_until([&] { return receiver_->requests("rotated").size() == 2; }));

  auto checks = receiver_->verify("rotated", {new_secret, hook.secret});
  ASSERT_EQ(checks.size(), 2u);
  const auto& before = checks[0].as_object().at("checks").as_array();
  EXPECT_FALSE(before[0].as_object().at("standard").as_bool());  // the new secret did not sign it
  EXPECT_TRUE(before[1].as_object().at("standard").as_bool());
  EXPECT_TRUE(before[1].as_object().at("service").as_bool());
  const auto& after = checks[1].as_object().at("checks").as_array();
  EXPECT_TRUE(after[0].as_object().at("standard").as_bool());
  EXPECT_TRUE(after[0].as_object().at("service").as_bool());
  EXPECT_TRUE(after[1].as_object().at("standard").as_bool());  // the old one still verifies
  EXPECT_TRUE(after[1].as_object().at("servicePrevious").as_bool());
  const auto signature =
      str(receiver_->requests("rotated")[1].as_object().at("headers").as_object().at(
          "webhook-signature"));
  EXPECT_NE(signature.find(' '), std::string::npos) << signature;

  // Redeliver the first delivery: the same event again, as a manual attempt.
  ASSERT_TRUE(wait_until([&] { return deliveries(hook.id).size() == 2; }));
  const auto first = deliveries(hook.id)[1].as_object();
  auto redelivered = request(
      "POST", "/v1/webhooks/" + hook.id + "/deliveries/" + str(first.at("id")) + "/redeliver");
  ASSERT_EQ(redelivered.status, 202u) << redelivered.body;
  ASSERT_TRUE(wait_until([&] { return receiver_->requests("rotated").size() == 3; }));
  EXPECT_EQ(str(receiver_->requests("rotated")[2].as_object().at("eventId")),
            str(first.at("eventId")));
  ASSERT_TRUE(wait_until([&] { return deliveries(hook.id).size() == 3; }));
  auto newest = deliveries(hook.id)[0].as_object();
  EXPECT_TRUE(newest.at("manual").as_bool());
  EXPECT_EQ(newest.at("attempt").as_int64(), 2);
  EXPECT_EQ(str(newest.at("eventId")), str(first.at("eventId")));
  // The redelivery is signed now: with the new secret, and the old one during the overlap.
  checks = receiver_->verify("rotated", {new_secret, hook.secret});
  ASSERT_EQ(checks.size(), 3u);
  const auto& again = checks[2].as_object().at("checks").as_array();
  EXPECT_TRUE(again[0].as_object().at("service").as_bool());
  EXPECT_TRUE(again[0].as_object().at("standard").as_bool());
  EXPECT_TRUE(again[1].as_object().at("servicePrevious").as_bool());
  EXPECT_TRUE(again[1].as_object().at("standard").as_bool());

  EXPECT_EQ(request("POST", "/v1/webhooks/" + hook.id + "/deliveries/dlv_000000/redeliver").status,
            404u);
}

TEST_F(WebhookDelivery, PrivateAddressesAreRefusedWithoutAnAllowList) {
  start({"--webhook-allow-http", "--webhook-retry-scale", "0.001"});
  const auto by_address = create_webhook(receiver_url("ssrf"), R"(["*"])");
  const auto by_name = create_webhook(
      "http://localhost:" + std::to_string(receiver_->port()) + "/h/ssrf-name", R"(["*"])");
  create_project();
  ASSERT_TRUE(wait_until(
      [&] { return deliveries(by_address.id).size() == 1 && deliveries(by_name.id).size() == 1; }));
  for (const auto& id : {by_address.id, by_name.id}) {
    auto entry = deliveries(id)[0].as_object();
    EXPECT_EQ(entry.at("status").as_int64(), 0);
    EXPECT_FALSE(entry.at("success").as_bool());
    EXPECT_TRUE(entry.at("nextAttempt").is_null());
    EXPECT_NE(str(entry.at("error")).find("refused"), std::string::npos) << str(entry.at("error"));
    EXPECT_NE(str(entry.at("error")).find("loopback"), std::string::npos) << str(entry.at("error"));
  }
  EXPECT_EQ(receiver_->requests("ssrf").size(), 0u);
  EXPECT_EQ(receiver_->requests("ssrf-name").size(), 0u);
}

}  // namespace
}  // namespace vouch::testing

namespace vouch::testing {
namespace {

// A generated test's run reaches test.* subscribers with the contract's data.
TEST_F(WebhookDelivery, TestRunEventsReachTheirSubscribers) {
  start(local_flags());
  const auto tests = create_webhook(receiver_url("tests"), R"(["test.*"])");
  const auto completed = create_webhook(receiver_url("completed"), R"(["test.completed"])");
  const auto project = create_project("runs");
  auto generated = request(
      "POST", "/v1/tests/generate",
      R"({"projectId":")" + project +
          R"(","files":[{"path":"abs.js","content":"exports.abs = (n) => (n < 0 ? -n : n);"}]})");
  ASSERT_EQ(generated.status, 201u) << generated.body;
  const auto test_id = str(json(generated)["testId"]);
  auto started = request("POST", "/v1/tests/run", R"({"testId":")" + test_id + R"("})");
  ASSERT_EQ(started.status, 202u) << started.body;
  const auto run_id = str(json(started)["runId"]);

  // test.started, test.completed and (the project's first coverage) test.coverage.updated.
  ASSERT_TRUE(wait_until(
      [&] {
        return receiver_->requests("tests").size() == 3 &&
               receiver_->requests("completed").size() == 1;
      },
      std::chrono::seconds(30)));
  std::vector<std::string> types;
  for (const auto& request : receiver_->requests("tests")) {
    auto body = boost::json::parse(str(request.as_object().at("body"))).as_object();
    types.push_back(str(body["type"]));
  }
  EXPECT_EQ(types,
            (std::vector<std::string>{"test.started", "test.completed", "test.coverage.updated"}));

  auto body = boost::json::parse(str(receiver_->requests("completed")[0].as_object().at("body")))
                  .as_object();
  EXPECT_EQ(str(body["type"]), "test.completed");
  auto& data = body["data"].as_object();
  EXPECT_EQ(str(data["testId"]), test_id);
  EXPECT_EQ(str(data["projectId"]), project);
  EXPECT_EQ(str(data["runId"]), run_id);
  EXPECT_EQ(str(data["status"]), "success");
  EXPECT_TRUE(data["duration"].is_number());
  auto& results = data["results"].as_object();
  EXPECT_EQ(results["failed"].to_number<double>(), 0);
  EXPECT_EQ(results["total"], results["passed"]);
  for (const char* metric : {"lines", "functions", "branches", "statements"}) {
    EXPECT_EQ(results["coverage"].at(metric).to_number<double>(), 100) << metric;
  }
  expect_signed(*receiver_, "tests", tests.secret);
  expect_signed(*receiver_, "completed", completed.secret);
}

}  // namespace
}  // namespace vouch::testing
