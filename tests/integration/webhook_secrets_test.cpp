#include "secrets/webhook_secrets.hpp"

#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <boost/json/parse.hpp>
#include <fstream>
#include <iterator>

#include "../unit/data_folder_scan.hpp"
#include "base/ids.hpp"
#include "events/event_record.hpp"
#include "events/idempotency.hpp"
#include "events/webhook.hpp"
#include "events/webhook_delivery.hpp"
#include "secrets/key_store.hpp"
#include "secrets/master_key.hpp"
#include "secrets/plain_secret_migration.hpp"
#include "store/database.hpp"
#include "store/event_log.hpp"
#include "webhook_fixture.hpp"

// Webhook secrets at rest, against the real vouchd: none in plain text in any
// file of the data folder nor in `vouchd replay`, a deleted webhook's secret
// no longer opens, deliveries still verify at a real receiver, and a folder
// written with plain secrets is sealed on start.
namespace vouch::testing {
namespace {

bool folder_holds(const std::filesystem::path& folder, const std::string& needle) {
  return data_folder_holds(folder, needle);
}

// The secret and the base64 of its key bytes (what a file could hold of it).
std::vector<std::string> forms_of(const std::string& secret) {
  return {secret, secret.substr(std::string("whsec_").size())};
}

// The data folder opened in this process (vouchd stopped), with its master key.
struct OpenedFolder {
  explicit OpenedFolder(const std::filesystem::path& data) {
    database = std::move(store::Database::open(data).value());
    auto opened = secrets::open_key_store(*database, secrets_key_file_of(data));
    EXPECT_TRUE(opened.ok()) << opened.error().message;
    keys = std::move(opened).value();
    webhook_secrets = std::make_unique<secrets::WebhookSecrets>(*keys);
    log = std::move(store::EventLog::open(*database).value());
  }
  ~OpenedFolder() {
    log.reset();
    webhook_secrets.reset();
    keys.reset();
    database.reset();
  }

  // The webhook as its stream folds.
  events::WebhookState webhook(const std::string& id) const {
    events::WebhookState state;
    const auto records = log->read_stream(events::webhook_stream(id)).value();
    for (const auto& record : records) {
      state = events::evolve(
          state, events::decode_webhook_event(record.event.type, record.event.data).value());
    }
    return state;
  }

  std::unique_ptr<store::Database> database;
  std::unique_ptr<secrets::KeyStore> keys;
  std::unique_ptr<secrets::WebhookSecrets> webhook_secrets;
  std::unique_ptr<store::EventLog> log;
};

class WebhookSecrets : public WebhookTest {
 protected:
  HttpResponse post_idempotent(const std::string& target, const std::string& body,
                               const std::string& key) {
    HttpRequest request{"POST", target, kAdmin, body};
    request.headers["Idempotency-Key"] = key;
    return send(server_->port(), request);
  }

  // A retry of an idempotent POST answers its first response, byte for byte.
  void expect_retry_answers(const std::string& target, const std::string& body,
                            const std::string& key, const HttpResponse& first) {
    auto again = post_idempotent(target, body, key);
    ASSERT_EQ(again.status, 201u) << again.body;
    EXPECT_EQ(again.header("idempotent-replayed"), "true");
    EXPECT_EQ(again.body, first.body);
  }

  // vouchd again on the same folder, delivering to the same receiver.
  void restart() { VouchdTest::start(local_flags()); }

  std::string replay() {
    auto replayed = run_vouchd({"replay", "--data", data().string()});
    EXPECT_EQ(replayed.status, 0);
    return replayed.out;
  }
};

TEST_F(WebhookSecrets, NoFileOfTheDataFolderAndNoReplayHoldsASecret) {
  start(local_flags());
  const std::string body = R"({"url":")" + receiver_url("kept") + R"(","events":["*"]})";
  auto created = post_idempotent("/v1/webhooks", body, "create-kept");
  ASSERT_EQ(created.status, 201u) << created.body;
  const auto id = str(json(created)["id"]);
  const auto first = str(json(created)["secret"]);
  auto rotated = post_idempotent("/v1/webhooks/" + id + "/rotate-secret", "", "rotate-kept");
  ASSERT_EQ(rotated.status, 200u) << rotated.body;
  const auto second = str(json(rotated)["secret"]);
  ASSERT_NE(first, second);

  // Deliveries still sign, with both secrets during the overlap.
  create_project("signed");
  ASSERT_TRUE(wait_until([&] { return receiver_->requests("kept").size() == 1; }));
  auto checks = receiver_->verify("kept", {second, first});
  ASSERT_EQ(checks.size(), 1u);
  const auto& signed_with = checks[0].as_object().at("checks").as_array();
  EXPECT_TRUE(signed_with[0].as_object().at("standard").as_bool());
  EXPECT_TRUE(signed_with[0].as_object().at("service").as_bool());
  EXPECT_TRUE(signed_with[1].as_object().at("servicePrevious").as_bool());

  // A retry of the idempotent creation answers the first response, secret included.
  expect_retry_answers("/v1/webhooks", body, "create-kept", created);

  // Restarted (the start-up sweep and compaction run), then stopped.
  ASSERT_EQ(server_->terminate(), 0);
  restart();
  ASSERT_EQ(server_->terminate(), 0);
  {
    OpenedFolder folder(data());  // the secrets are there, sealed
    const auto state = folder.webhook(id);
    EXPECT_EQ(*folder.webhook_secrets->open(id, state.webhook->secret), second);
    EXPECT_EQ(*folder.webhook_secrets->open(id, state.webhook->previous_secret), first);
    ASSERT_TRUE(secrets::compact_all(*folder.database).ok());
  }
  for (const auto& secret : {first, second}) {
    for (const auto& form : forms_of(secret)) {
      EXPECT_FALSE(folder_holds(data(), form)) << form;
    }
  }
  const auto audit = replay();
  EXPECT_NE(audit.find("WebhookCreated.v2"), std::string::npos);
  EXPECT_NE(audit.find("[secret withheld]"), std::string::npos);
  EXPECT_EQ(audit.find("whsec_"), std::string::npos);
  EXPECT_EQ(audit.find("\"sealed\""), std::string::npos);
  for (const auto& secret : {first, second}) {
    EXPECT_EQ(audit.find(forms_of(secret)[1]), std::string::npos);
  }
}

TEST_F(WebhookSecrets, AnIdempotentKeyIssueKeepsTheNewApiKeySealedAndAnswersItsRetry) {
  start(local_flags());
  const std::string body = R"({"account":"acme","plan":"pro","scopes":["projects:read"]})";
  auto issued = post_idempotent("/v1/keys", body, "issue-acme");
  ASSERT_EQ(issued.status, 201u) << issued.body;
  const auto api_key = str(json(issued)["key"]);
  ASSERT_EQ(api_key.rfind("vk_", 0), 0u) << api_key;
  expect_retry_answers("/v1/keys", body, "issue-acme", issued);

  // The start-up sweep keeps the key while the record answers retries.
  ASSERT_EQ(server_->terminate(), 0);
  restart();
  auto after_restart = post_idempotent("/v1/keys", body, "issue-acme");
  ASSERT_EQ(after_restart.status, 201u) << after_restart.body;
  EXPECT_EQ(after_restart.body, issued.body);
  EXPECT_EQ(request("GET", "/v1/projects", "", api_key).status, 200u);  // the key works
  ASSERT_EQ(server_->terminate(), 0);

  {
    OpenedFolder folder(data());
    ASSERT_TRUE(secrets::compact_all(*folder.database).ok());
  }
  EXPECT_FALSE(folder_holds(data(), api_key));
  const auto audit = replay();
  EXPECT_NE(audit.find("IdempotentResponseRecorded"), std::string::npos);
  EXPECT_NE(audit.find("[secret withheld]"), std::string::npos);
  EXPECT_EQ(audit.find(api_key), std::string::npos);
}

TEST_F(WebhookSecrets, ADeletedWebhooksSecretCanNoLongerBeOpened) {
  start(local_flags());
  const auto hook = create_webhook(receiver_url("gone"), R"(["*"])");
  ASSERT_EQ(server_->terminate(), 0);
  events::SealedSecret sealed;
  std::string wrapped;
  {
    OpenedFolder folder(data());
    sealed = folder.webhook(hook.id).webhook->secret;
    auto opened = folder.webhook_secrets->open(hook.id, sealed);
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    EXPECT_EQ(*opened, hook.secret);
    ASSERT_TRUE(folder.database->db()
                    .Get(rocksdb::ReadOptions(), folder.database->secrets(), "key/" + sealed.key_id,
                         &wrapped)
                    .ok());
  }

  restart();
  ASSERT_EQ(request("DELETE", "/v1/webhooks/" + hook.id).status, 204u);
  ASSERT_EQ(server_->terminate(), 0);
  {
    OpenedFolder folder(data());
    EXPECT_TRUE(folder.webhook(hook.id).deleted);
    auto opened = folder.webhook_secrets->open(hook.id, sealed);
    ASSERT_FALSE(opened.ok());
    EXPECT_EQ(opened.error().code, base::ErrorCode::kNotFound) << opened.error().message;
  }
  // The wrapped key is gone from every file, not only from RocksDB's answers.
  EXPECT_FALSE(folder_holds(data(), wrapped));
}

TEST_F(WebhookSecrets, AFolderWithPlainSecretsIsSealedOnStartAndStillDelivers) {
  start(local_flags());  // bootstraps the admin account
  ASSERT_EQ(server_->terminate(), 0);
  // Shaped as the code before sealing answered them (the OpenAPI check reads
  // the replayed answers too): 24 random bytes in base64, ids of 24 hex digits.
  const std::string plain = "whsec_" + std::string("UGxhaW5TZWNyZXRPZkFuT2xkRm9sZGVy");
  const std::string id = base::new_id(base::kWebhookIdPrefix);
  const std::string key_id = base::new_id("key_");
  const std::string created_at = "2026-11-20T10:00:00.000Z";
  const std::string url = receiver_url("old");
  const std::string create_body = R"({"url":")" + url + R"(","events":["*"]})";
  // New API keys in the recorded responses of idempotent POST /v1/keys: one
  // that still answers retries, one past the window.
  const std::string api_key = "vk_" + std::string(64, 'a');
  const std::string expired_api_key = "vk_" + std::string(64, 'b');
  const std::string issue_body = R"({"account":"acme","scopes":["projects:read"]})";
  {
    // What the code before sealing wrote: the secret in WebhookCreated.v1 and
    // in the recorded first response of an idempotent creation.
    auto database = std::move(store::Database::open(data()).value());
    for (const char* key : {"master-key-check", "plain-secrets-sealed"}) {
      ASSERT_TRUE(database->db().Delete(rocksdb::WriteOptions(), database->secrets(), key).ok());
    }
    auto log = std::move(store::EventLog::open(*database).value());
    const auto now = base::now_millis();
    const std::string created =
        R"({"id":")" + id + R"(","account":"admin","url":")" + url +
        R"(","events":["*"],"description":"","active":true,"disabledReason":"","created":)" +
        std::to_string(now) + R"(,"updated":)" + std::to_string(now) + R"(,"secret":")" + plain +
        R"(","previousSecret":"","previousSecretUntil":0})";
    ASSERT_TRUE(
        log->append({events::webhook_stream(id),
                     0,
                     {events::NewEvent{base::new_id("evt"), std::string(events::kWebhookCreatedV1),
                                       "admin", now, created}}})
            .ok());
    events::IdempotentResponse response;
    response.key = "create-old";
    response.fingerprint = events::request_fingerprint("POST", "/v1/webhooks", create_body);
    response.status = 201;
    response.content_type = "application/json";
    response.headers = {{"Location", "/v1/webhooks/" + id}};
    response.body = R"({"id":")" + id + R"(","url":")" + url +
                    R"(","events":["*"],"description":"","active":true,"created":")" + created_at +
                    R"(","updated":")" + created_at + R"(","secret":")" + plain + R"("})";
    response.at = now;
    const auto recorded = events::encode(events::IdempotentResponseRecorded{response});
    ASSERT_TRUE(log->append({events::idempotency_stream("admin", "create-old"),
                             0,
                             {events::NewEvent{base::new_id("evt"), recorded.type, "admin", now,
                                               recorded.data}}})
                    .ok());
    const auto record_issue = [&](const std::string& key, const std::string& plain_key,
                                  base::Millis at) {
      events::IdempotentResponse issued;
      issued.key = key;
      issued.fingerprint = events::request_fingerprint("POST", "/v1/keys", issue_body);
      issued.status = 201;
      issued.content_type = "application/json";
      issued.headers = {{"Location", "/v1/keys/" + key_id}};
      issued.body = R"({"id":")" + key_id + R"(","key":")" + plain_key +
                    R"(","account":"acme","plan":"free","scopes":["projects:read"],"name":"",)" +
                    R"("created":")" + created_at + R"("})";
      issued.at = at;
      const auto encoded = events::encode(events::IdempotentResponseRecorded{issued});
      return log
          ->append(
              {events::idempotency_stream("admin", key),
               0,
               {events::NewEvent{base::new_id("evt"), encoded.type, "admin", at, encoded.data}}})
          .ok();
    };
    ASSERT_TRUE(record_issue("issue-old", api_key, now));
    ASSERT_TRUE(
        record_issue("issue-expired", expired_api_key, now - events::kIdempotencyWindowMs - 1000));
  }
  std::filesystem::remove(secrets_key_file_of(data()));  // an old folder had none
  ASSERT_TRUE(folder_holds(data(), plain));
  ASSERT_TRUE(folder_holds(data(), api_key));

  restart();
  for (const auto& form : forms_of(plain)) EXPECT_FALSE(folder_holds(data(), form)) << form;
  EXPECT_FALSE(folder_holds(data(), api_key));
  EXPECT_FALSE(folder_holds(data(), expired_api_key));
  // The recorded API key still answers its retry.
  auto issued_again = post_idempotent("/v1/keys", issue_body, "issue-old");
  ASSERT_EQ(issued_again.status, 201u) << issued_again.body;
  EXPECT_EQ(issued_again.header("idempotent-replayed"), "true");
  EXPECT_EQ(str(json(issued_again)["key"]), api_key);
  // The migrated secret still signs, and the recorded response still replays it.
  create_project("after-migration");
  ASSERT_TRUE(wait_until([&] { return receiver_->requests("old").size() == 1; }));
  auto checks = receiver_->verify("old", {plain});
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_TRUE(checks[0].as_object().at("checks").as_array()[0].as_object().at("service").as_bool());
  auto again = post_idempotent("/v1/webhooks", create_body, "create-old");
  ASSERT_EQ(again.status, 201u) << again.body;
  EXPECT_EQ(str(json(again)["secret"]), plain);
  ASSERT_EQ(server_->terminate(), 0);

  for (const auto& form : forms_of(plain)) EXPECT_FALSE(folder_holds(data(), form)) << form;
  const auto audit = replay();
  EXPECT_NE(audit.find("WebhookCreated.v2"), std::string::npos);
  EXPECT_EQ(audit.find(forms_of(plain)[1]), std::string::npos);
}

TEST_F(WebhookSecrets, AKeyFileOthersCanReadOrAnotherKeyIsRefusedWithTheReason) {
  start(local_flags());
  ASSERT_EQ(server_->terminate(), 0);
  const auto key_file = secrets_key_file_of(data());
  std::filesystem::permissions(key_file, std::filesystem::perms::others_read,
                               std::filesystem::perm_options::add);
  auto refused = run_vouchd({"serve", "--data", data().string(), "--listen", "127.0.0.1:0",
                             "--secrets-key-file", key_file.string()});
  EXPECT_EQ(refused.status, 1);

  std::filesystem::permissions(key_file, std::filesystem::perms::others_read,
                               std::filesystem::perm_options::remove);
  const auto other = folder_.path() / "other.key";
  auto absent = run_vouchd({"serve", "--data", data().string(), "--listen", "127.0.0.1:0",
                            "--secrets-key-file", other.string()});
  EXPECT_EQ(absent.status, 1);  // absent while the folder's keys need one: not created
  EXPECT_FALSE(std::filesystem::exists(other));
  ASSERT_TRUE(secrets::create_master_key(other).ok());
  auto wrong = run_vouchd({"serve", "--data", data().string(), "--listen", "127.0.0.1:0",
                           "--secrets-key-file", other.string()});
  EXPECT_EQ(wrong.status, 1);
  auto inside = run_vouchd({"serve", "--data", data().string(), "--listen", "127.0.0.1:0",
                            "--secrets-key-file", (data() / "secrets.key").string()});
  EXPECT_EQ(inside.status, 1);
}

TEST_F(WebhookSecrets, RotatingTheMasterKeyRewrapsEveryDataKey) {
  start(local_flags());
  const auto hook = create_webhook(receiver_url("rewrapped"), R"(["*"])");
  ASSERT_EQ(server_->terminate(), 0);
  const auto old_key = secrets_key_file_of(data());
  const auto new_key = folder_.path() / "next.key";
  auto rotated = run_vouchd({"rotate-master-key", "--data", data().string(), "--secrets-key-file",
                             old_key.string(), "--new-key-file", new_key.string()});
  ASSERT_EQ(rotated.status, 0) << rotated.out;
  EXPECT_NE(rotated.out.find("rewrapped 1 data keys"), std::string::npos) << rotated.out;
  // The old key no longer opens the folder; the new one does, and deliveries still sign.
  std::filesystem::rename(old_key, folder_.path() / "retired.key");
  std::filesystem::rename(new_key, old_key);
  restart();
  create_project("rewrapped");
  ASSERT_TRUE(wait_until([&] { return receiver_->requests("rewrapped").size() == 1; }));
  auto checks = receiver_->verify("rewrapped", {hook.secret});
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_TRUE(
      checks[0].as_object().at("checks").as_array()[0].as_object().at("standard").as_bool());
  ASSERT_EQ(server_->terminate(), 0);
  auto database = std::move(store::Database::open(data()).value());
  auto retired = secrets::read_master_key(folder_.path() / "retired.key");
  ASSERT_TRUE(retired.ok());
  EXPECT_FALSE(secrets::KeyStore::open(*database, *retired).ok());
}

}  // namespace
}  // namespace vouch::testing
