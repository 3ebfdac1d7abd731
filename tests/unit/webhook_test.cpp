#include "events/webhook.hpp"

#include <gtest/gtest.h>

namespace vouch::events {
namespace {

const WebhookRules kHttpsOnly{false};
const SealedSecret kOne{"dk_one", "c2VhbGVkIG9uZQ=="};
const SealedSecret kTwo{"dk_two", "c2VhbGVkIHR3bw=="};

CreateWebhook create_command() {
  return {"whk_1", "acme", "https://hooks.example.com/in", {"project.*"}, "ci", "whsec_one", 1000};
}

WebhookState created() {
  auto decided = decide(WebhookState{}, create_command(), kOne, kHttpsOnly);
  EXPECT_TRUE(decided.ok());
  return evolve(WebhookState{}, decided->front());
}

TEST(EventPatterns, WildcardsSelectTheirGroupOnly) {
  EXPECT_TRUE(pattern_matches("*", "test.started"));
  EXPECT_TRUE(pattern_matches("*", "project.deleted"));
  EXPECT_TRUE(pattern_matches("test.*", "test.started"));
  EXPECT_TRUE(pattern_matches("test.*", "test.coverage.updated"));
  EXPECT_FALSE(pattern_matches("test.*", "project.created"));
  EXPECT_TRUE(pattern_matches("project.*", "project.imported"));
  EXPECT_FALSE(pattern_matches("project.*", "test.failed"));
  EXPECT_TRUE(pattern_matches("test.failed", "test.failed"));
  EXPECT_FALSE(pattern_matches("test.failed", "test.completed"));
  EXPECT_TRUE(any_pattern_matches({"test.failed", "project.*"}, "project.updated"));
  EXPECT_FALSE(any_pattern_matches({"test.failed"}, "project.updated"));
}

TEST(EventPatterns, OnlyTheContractsTypesAndThreeWildcardsAreValid) {
  for (const auto& type : public_event_types()) EXPECT_TRUE(is_valid_event_pattern(type));
  EXPECT_EQ(public_event_types().size(), 8u);
  for (const char* pattern : {"*", "test.*", "project.*"}) {
    EXPECT_TRUE(is_valid_event_pattern(pattern));
  }
  for (const char* pattern : {"", "tests.*", "test.", "project.*.x", "Test.started", "*.*",
                              "webhook.created", "test.coverage.*"}) {
    EXPECT_FALSE(is_valid_event_pattern(pattern)) << pattern;
  }
}

TEST(WebhookUrl, MustBeAnAbsoluteHttpsUrl) {
  EXPECT_FALSE(check_webhook_url("https://hooks.example.com/in?x=1", false).has_value());
  EXPECT_FALSE(check_webhook_url("https://[2001:db8::1]:8443/", false).has_value());
  EXPECT_TRUE(check_webhook_url("http://hooks.example.com/", false).has_value());
  EXPECT_FALSE(check_webhook_url("http://hooks.example.com/", true).has_value());
  EXPECT_TRUE(check_webhook_url("ftp://hooks.example.com/", true).has_value());
  EXPECT_TRUE(check_webhook_url("/relative", false).has_value());
  EXPECT_TRUE(check_webhook_url("https://", false).has_value());
  EXPECT_TRUE(check_webhook_url("https://user:pw@hooks.example.com/", false).has_value());
  EXPECT_TRUE(check_webhook_url("https://hooks.example.com:0/", false).has_value());
  EXPECT_TRUE(check_webhook_url("https://exa mple.com/", false).has_value());
  EXPECT_TRUE(check_webhook_url("", false).has_value());
}

TEST(Webhook, CreateRecordsTheSubscription) {
  auto decided = decide(WebhookState{}, create_command(), kOne, kHttpsOnly);
  ASSERT_TRUE(decided.ok());
  ASSERT_EQ(decided->size(), 1u);
  const auto& webhook = std::get<WebhookCreated>(decided->front()).webhook;
  EXPECT_EQ(webhook.url, "https://hooks.example.com/in");
  EXPECT_TRUE(webhook.active);
  EXPECT_EQ(webhook.secret, kOne);  // only the sealed form is recorded
  EXPECT_EQ(webhook.created, 1000);
}

TEST(Webhook, CreateNamesEveryBadField) {
  auto command = create_command();
  command.url = "http://plain.example/";
  command.events = {"project.created", "bogus"};
  auto decided = decide(WebhookState{}, command, kOne, kHttpsOnly);
  ASSERT_FALSE(decided.ok());
  EXPECT_EQ(decided.error().code, base::ErrorCode::kInvalid);
  ASSERT_EQ(decided.error().fields.size(), 2u);
  EXPECT_EQ(decided.error().fields[0].field, "url");
  EXPECT_EQ(decided.error().fields[1].field, "events[1]");
  EXPECT_NE(decided.error().fields[1].message.find("bogus"), std::string::npos);

  command = create_command();
  command.events = {};
  auto empty = decide(WebhookState{}, command, kOne, kHttpsOnly);
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().fields[0].field, "events");
  EXPECT_EQ(decide(created(), create_command(), kOne, kHttpsOnly).error().code,
            base::ErrorCode::kConflict);
}

TEST(Webhook, UpdateRecordsOnlyWhatChanges) {
  const auto state = created();
  UpdateWebhook same{
      "whk_1", "acme", {"https://hooks.example.com/in", std::nullopt, "ci", true}, 2};
  auto nothing = decide(state, same, kHttpsOnly);
  ASSERT_TRUE(nothing.ok());
  EXPECT_TRUE(nothing->empty());

  UpdateWebhook off{
      "whk_1", "acme", {std::nullopt, std::vector<std::string>{"*"}, std::nullopt, false}, 3};
  auto changed = decide(state, off, kHttpsOnly);
  ASSERT_TRUE(changed.ok());
  ASSERT_EQ(changed->size(), 1u);
  const auto& event = std::get<WebhookUpdated>(changed->front());
  EXPECT_FALSE(event.changes.url.has_value());
  EXPECT_TRUE(event.changes.events.has_value());
  EXPECT_EQ(event.changes.active, false);
  const auto after = evolve(state, changed->front());
  EXPECT_FALSE(after.webhook->active);
  EXPECT_EQ(after.webhook->events, std::vector<std::string>{"*"});
  EXPECT_EQ(after.webhook->updated, 3);
}

TEST(Webhook, AnotherAccountsOrADeletedWebhookIsNotFound) {
  const auto state = created();
  UpdateWebhook foreign{"whk_1", "other", {std::nullopt, std::nullopt, std::nullopt, false}, 2};
  EXPECT_EQ(decide(state, foreign, kHttpsOnly).error().code, base::ErrorCode::kNotFound);
  auto deleted = decide(state, DeleteWebhook{"whk_1", "acme", 5});
  ASSERT_TRUE(deleted.ok());
  const auto gone = evolve(state, deleted->front());
  EXPECT_EQ(decide(gone, DeleteWebhook{"whk_1", "acme", 6}).error().code,
            base::ErrorCode::kNotFound);
  EXPECT_EQ(decide(gone, RotateWebhookSecret{"whk_1", "acme", "whsec_two", 7}, kTwo).error().code,
            base::ErrorCode::kNotFound);
}

TEST(Webhook, RotationKeepsThePreviousSecretFor24Hours) {
  auto rotated = decide(created(), RotateWebhookSecret{"whk_1", "acme", "whsec_two", 10'000}, kTwo);
  ASSERT_TRUE(rotated.ok());
  const auto state = evolve(created(), rotated->front());
  EXPECT_EQ(state.webhook->secret, kTwo);
  EXPECT_EQ(signing_secrets(*state.webhook, 10'001), (std::vector<SealedSecret>{kTwo, kOne}));
  EXPECT_EQ(needed_keys(state, 10'001), (std::vector<std::string>{"dk_two", "dk_one"}));
  const auto after_overlap = 10'000 + kSecretOverlapMillis;
  EXPECT_EQ(signing_secrets(*state.webhook, after_overlap), std::vector<SealedSecret>{kTwo});
  EXPECT_EQ(needed_keys(state, after_overlap), std::vector<std::string>{"dk_two"});
}

TEST(Webhook, DisablingDeactivatesWithAReasonOnce) {
  auto disabled = decide(created(), DisableWebhook{"whk_1", "the receiver answered 410 Gone", 9});
  ASSERT_TRUE(disabled.ok());
  ASSERT_EQ(disabled->size(), 1u);
  auto state = evolve(created(), disabled->front());
  EXPECT_FALSE(state.webhook->active);
  EXPECT_EQ(state.webhook->disabled_reason, "the receiver answered 410 Gone");
  EXPECT_TRUE(decide(state, DisableWebhook{"whk_1", "again", 10})->empty());
  // Re-activating clears the reason.
  UpdateWebhook on{"whk_1", "acme", {std::nullopt, std::nullopt, std::nullopt, true}, 11};
  state = evolve(state, decide(state, on, kHttpsOnly)->front());
  EXPECT_TRUE(state.webhook->active);
  EXPECT_TRUE(state.webhook->disabled_reason.empty());
}

TEST(Webhook, DeletingNeedsNoKeyAnyMore) {
  auto deleted = decide(created(), DeleteWebhook{"whk_1", "acme", 5});
  ASSERT_TRUE(deleted.ok());
  EXPECT_EQ(needed_keys(created(), 5), std::vector<std::string>{"dk_one"});
  EXPECT_TRUE(needed_keys(evolve(created(), deleted->front()), 5).empty());
}

TEST(WebhookCodec, PlainSecretEventsOfOlderFoldersDecodeWithoutTheirSecrets) {
  const std::string created_v1 =
      R"({"id":"whk_1","account":"acme","url":"https://h/x","events":["*"],"description":"",)"
      R"("active":true,"disabledReason":"","created":1,"updated":1,"secret":"whsec_old",)"
      R"("previousSecret":"","previousSecretUntil":0})";
  ASSERT_TRUE(is_webhook_event(kWebhookCreatedV1));
  auto created = decode_webhook_event(kWebhookCreatedV1, created_v1);
  ASSERT_TRUE(created.ok()) << created.error().message;
  const auto& webhook = std::get<WebhookCreated>(*created).webhook;
  EXPECT_EQ(webhook.url, "https://h/x");
  EXPECT_TRUE(webhook.secret.empty());
  auto rotated = decode_webhook_event(
      kWebhookSecretRotatedV1,
      R"({"id":"whk_1","secret":"whsec_new","previousSecret":"whsec_old","previousSecretUntil":9,"at":2})");
  ASSERT_TRUE(rotated.ok()) << rotated.error().message;
  EXPECT_TRUE(std::get<WebhookSecretRotated>(*rotated).secret.empty());
  EXPECT_EQ(std::get<WebhookSecretRotated>(*rotated).previous_secret_until, 9);
}

TEST(WebhookCodec, EventsRoundTrip) {
  const auto state = created();
  const std::vector<WebhookEvent> events{
      WebhookCreated{*state.webhook},
      WebhookUpdated{"whk_1", {"https://x.example/", std::vector<std::string>{"*"}, "d", false}, 2},
      WebhookSecretRotated{"whk_1", kTwo, 99, 3}, WebhookDisabled{"whk_1", "gone", 4},
      WebhookDeleted{"whk_1", 5}};
  auto replayed = WebhookState{};
  auto direct = WebhookState{};
  for (const auto& event : events) {
    const auto encoded = encode(event);
    ASSERT_TRUE(is_webhook_event(encoded.type)) << encoded.type;
    auto decoded = decode_webhook_event(encoded.type, encoded.data);
    ASSERT_TRUE(decoded.ok()) << encoded.data;
    replayed = evolve(replayed, *decoded);
    direct = evolve(direct, event);
  }
  EXPECT_EQ(replayed.webhook->secret, kTwo);
  EXPECT_EQ(replayed.webhook->previous_secret, kOne);
  EXPECT_EQ(replayed.webhook->secret, direct.webhook->secret);
  EXPECT_EQ(replayed.webhook->previous_secret_until, 99);
  EXPECT_EQ(replayed.webhook->url, "https://x.example/");
  EXPECT_EQ(replayed.webhook->disabled_reason, "gone");
  EXPECT_TRUE(replayed.deleted);

  DeliveryAttempted attempt;
  attempt.delivery_id = "dlv_1";
  attempt.webhook_id = "whk_1";
  attempt.event_id = "evt_1";
  attempt.event_position = 42;
  attempt.event_type = "project.created";
  attempt.url = "https://x.example/";
  attempt.attempt = 3;
  attempt.status = 503;
  attempt.duration = 12;
  attempt.error = "the receiver answered 503";
  attempt.next_attempt = 5000;
  attempt.at = 4000;
  auto decoded = decode_delivery_attempted(encode(attempt).data);
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->event_position, 42u);
  EXPECT_EQ(decoded->next_attempt, 5000);
  EXPECT_EQ(decoded->error, attempt.error);
  EXPECT_FALSE(decode_delivery_attempted("{}").ok());
}

}  // namespace
}  // namespace vouch::events
