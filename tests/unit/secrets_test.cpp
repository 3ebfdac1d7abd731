#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <sys/stat.h>

#include <fstream>
#include <iterator>

#include "base/ids.hpp"
#include "data_folder_scan.hpp"
#include "events/idempotency.hpp"
#include "events/secret_redaction.hpp"
#include "events/webhook.hpp"
#include "events/webhook_delivery.hpp"
#include "secrets/aead.hpp"
#include "secrets/key_store.hpp"
#include "secrets/key_sweep.hpp"
#include "secrets/master_key.hpp"
#include "secrets/plain_secret_migration.hpp"
#include "secrets/webhook_secrets.hpp"
#include "store/event_log.hpp"
#include "temp_folder.hpp"
#include "test_files.hpp"

namespace vouch::secrets {
namespace {

Key random_key() { return Key::random().value(); }

bool folder_holds(const std::filesystem::path& folder, const std::string& needle) {
  return testing::data_folder_holds(folder, needle);
}

TEST(Aead, SealedTextOpensWithTheSameKeyAndBinding) {
  const auto key = random_key();
  auto sealed = seal(key, "whsec_plain", "webhook whk_1");
  ASSERT_TRUE(sealed.ok());
  EXPECT_EQ(sealed->size(), kNonceBytes + std::string("whsec_plain").size() + kTagBytes);
  EXPECT_EQ(sealed->find("whsec_plain"), std::string::npos);
  auto opened = open(key, *sealed, "webhook whk_1");
  ASSERT_TRUE(opened.ok()) << opened.error().message;
  EXPECT_EQ(*opened, "whsec_plain");
  // A fresh nonce each time: the same text never seals to the same bytes.
  EXPECT_NE(*seal(key, "whsec_plain", "webhook whk_1"), *sealed);
}

TEST(Aead, AlteredBytesAnotherBindingOrAnotherKeyDoNotOpen) {
  const auto key = random_key();
  const auto sealed = seal(key, "whsec_plain", "webhook whk_1").value();
  for (std::size_t at : {std::size_t{0}, kNonceBytes, sealed.size() - 1}) {
    auto tampered = sealed;
    tampered[at] = static_cast<char>(tampered[at] ^ 1);
    auto opened = open(key, tampered, "webhook whk_1");
    ASSERT_FALSE(opened.ok()) << "byte " << at;
    EXPECT_EQ(opened.error().code, base::ErrorCode::kInvalid);
  }
  EXPECT_FALSE(open(key, sealed, "webhook whk_2").ok());
  EXPECT_FALSE(open(random_key(), sealed, "webhook whk_1").ok());
  EXPECT_FALSE(open(key, sealed.substr(0, kNonceBytes + kTagBytes - 1), "webhook whk_1").ok());
}

TEST(MasterKey, IsCreatedWithMode0600AndReadBack) {
  testing::TempFolder folder;
  const auto path = folder.path() / "keys" / "secrets.key";
  auto created = create_master_key(path);
  ASSERT_TRUE(created.ok()) << created.error().message;
  struct stat status {};
  ASSERT_EQ(::stat(path.c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 0777, 0600u);
  EXPECT_EQ(status.st_size, static_cast<off_t>(kKeyBytes));
  auto read = read_master_key(path);
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(read->view(), created->view());
  EXPECT_FALSE(create_master_key(path).ok());  // never overwrites a key
}

TEST(MasterKey, AFileOthersCanReadOrOfTheWrongSizeIsRefusedWithTheFix) {
  testing::TempFolder folder;
  const auto path = folder.path() / "secrets.key";
  ASSERT_TRUE(create_master_key(path).ok());
  std::filesystem::permissions(path, std::filesystem::perms::group_read,
                               std::filesystem::perm_options::add);
  auto shared = read_master_key(path);
  ASSERT_FALSE(shared.ok());
  EXPECT_EQ(shared.error().code, base::ErrorCode::kInvalid);
  EXPECT_NE(shared.error().message.find("chmod 600"), std::string::npos) << shared.error().message;

  const auto short_key = folder.path() / "short.key";
  testing::write_file(short_key, "0123456789");
  std::filesystem::permissions(
      short_key, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  auto wrong = read_master_key(short_key);
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.error().message.find("holds 10 bytes"), std::string::npos)
      << wrong.error().message;
  EXPECT_EQ(read_master_key(folder.path() / "absent.key").error().code, base::ErrorCode::kNotFound);
}

TEST(MasterKey, MustLiveOutsideTheDataFolder) {
  testing::TempFolder folder;
  const auto data = folder.path() / "data";
  EXPECT_FALSE(check_outside_data_folder(data / "secrets.key", data).ok());
  EXPECT_FALSE(check_outside_data_folder(data / "sub" / ".." / "k", data).ok());
  EXPECT_TRUE(check_outside_data_folder(folder.path() / "secrets.key", data).ok());
  EXPECT_TRUE(check_outside_data_folder(folder.path() / "data-key", data).ok());
}

class KeyStoreTest : public ::testing::Test {
 protected:
  void SetUp() override { open(); }
  void open() {
    log_.reset();
    secrets_.reset();
    store_.reset();
    database_.reset();
    database_ = std::move(store::Database::open(folder_.path() / "data").value());
    store_ = std::move(KeyStore::open(*database_, master_).value());
    secrets_ = std::make_unique<WebhookSecrets>(*store_);
    log_ = std::move(store::EventLog::open(*database_).value());
  }

  testing::TempFolder folder_;
  Key master_ = random_key();
  std::unique_ptr<store::Database> database_;
  std::unique_ptr<KeyStore> store_;
  std::unique_ptr<WebhookSecrets> secrets_;
  std::unique_ptr<store::EventLog> log_;
};

TEST_F(KeyStoreTest, ASealedSecretOpensForItsWebhookOnly) {
  auto sealed = secrets_->seal("whk_1", "whsec_one");
  ASSERT_TRUE(sealed.ok()) << sealed.error().message;
  EXPECT_EQ(sealed->sealed.find("whsec"), std::string::npos);
  EXPECT_EQ(*secrets_->open("whk_1", *sealed), "whsec_one");
  EXPECT_FALSE(secrets_->open("whk_2", *sealed).ok());
  auto other = secrets_->seal("whk_1", "whsec_two");
  EXPECT_NE(other->key_id, sealed->key_id);  // every secret has a key of its own
  // Sealed under one key, presented as the other's: does not authenticate.
  EXPECT_FALSE(secrets_->open("whk_1", {other->key_id, sealed->sealed}).ok());
}

TEST_F(KeyStoreTest, ADestroyedKeyOpensNothingAndLeavesTheFiles) {
  auto sealed = secrets_->seal("whk_1", "whsec_one").value();
  std::string wrapped;
  ASSERT_TRUE(
      database_->db()
          .Get(rocksdb::ReadOptions(), database_->secrets(), "key/" + sealed.key_id, &wrapped)
          .ok());
  ASSERT_TRUE(store_->purge().ok());
  ASSERT_TRUE(folder_holds(folder_.path(), wrapped));

  ASSERT_TRUE(secrets_->destroy({sealed.key_id}).ok());
  auto opened = secrets_->open("whk_1", sealed);
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(opened.error().code, base::ErrorCode::kNotFound);
  ASSERT_TRUE(store_->purge().ok());
  EXPECT_FALSE(folder_holds(folder_.path(), wrapped));
  open();
  EXPECT_FALSE(secrets_->open("whk_1", sealed).ok());
}

TEST_F(KeyStoreTest, AnotherMasterKeyIsRefusedAtOpen) {
  ASSERT_TRUE(secrets_->seal("whk_1", "whsec_one").ok());
  auto other = KeyStore::open(*database_, random_key());
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error().code, base::ErrorCode::kInvalid);
  EXPECT_NE(other.error().message.find("master key"), std::string::npos) << other.error().message;
}

TEST_F(KeyStoreTest, RewrappingMovesEveryKeyToTheNewMasterKey) {
  auto sealed = secrets_->seal("whk_1", "whsec_one").value();
  const auto next = random_key();
  auto rewrapped = store_->rewrap(next);
  ASSERT_TRUE(rewrapped.ok()) << rewrapped.error().message;
  EXPECT_EQ(*rewrapped, 1u);
  EXPECT_EQ(*secrets_->open("whk_1", sealed), "whsec_one");
  EXPECT_FALSE(KeyStore::open(*database_, master_).ok());
  master_ = next;
  open();
  EXPECT_EQ(*secrets_->open("whk_1", sealed), "whsec_one");
}

TEST_F(KeyStoreTest, TheSweepDestroysKeysNoWebhookNeeds) {
  using namespace events;
  auto first = secrets_->seal("whk_1", "whsec_one").value();
  auto second = secrets_->seal("whk_1", "whsec_two").value();
  auto orphan = secrets_->seal("whk_1", "whsec_never_recorded").value();
  auto gone = secrets_->seal("whk_2", "whsec_deleted").value();
  const auto at = base::now_millis();
  auto append = [&](const std::string& id, std::uint64_t expected, const WebhookEvent& event) {
    auto encoded = encode(event);
    ASSERT_TRUE(
        log_->append({webhook_stream(id),
                      expected,
                      {NewEvent{base::new_id("evt"), encoded.type, "acme", at, encoded.data}}})
            .ok());
  };
  Webhook one;
  one.id = "whk_1";
  one.secret = first;
  append("whk_1", 0, WebhookCreated{one});
  append("whk_1", 1, WebhookSecretRotated{"whk_1", second, at + kSecretOverlapMillis, at});
  Webhook two;
  two.id = "whk_2";
  two.secret = gone;
  append("whk_2", 0, WebhookCreated{two});
  append("whk_2", 1, WebhookDeleted{"whk_2", at});

  auto destroyed = destroy_unneeded_keys(*log_, *secrets_, at);
  ASSERT_TRUE(destroyed.ok()) << destroyed.error().message;
  EXPECT_EQ(*destroyed, 2u);                         // the orphan and the deleted webhook's
  EXPECT_TRUE(secrets_->open("whk_1", first).ok());  // still signs during the overlap
  EXPECT_TRUE(secrets_->open("whk_1", second).ok());
  EXPECT_FALSE(secrets_->open("whk_1", orphan).ok());
  EXPECT_FALSE(secrets_->open("whk_2", gone).ok());

  EXPECT_EQ(*destroy_unneeded_keys(*log_, *secrets_, at + kSecretOverlapMillis), 1u);
  EXPECT_FALSE(secrets_->open("whk_1", first).ok());
  EXPECT_TRUE(secrets_->open("whk_1", second).ok());
}

// The data key of an API key in a recorded idempotent response lives while
// the record answers retries; one no record names (the append failed) goes.
TEST_F(KeyStoreTest, TheSweepKeepsARecordedApiKeyForTheIdempotencyWindowOnly) {
  using namespace events;
  const auto stream = idempotency_stream("admin", "issue-1");
  const auto unrecorded_stream = idempotency_stream("admin", "issue-2");
  auto kept = secrets_->seal(stream, "vk_kept").value();
  auto unrecorded = secrets_->seal(unrecorded_stream, "vk_unrecorded").value();
  const auto at = base::now_millis();
  IdempotentResponse response;
  response.key = "issue-1";
  response.status = 201;
  response.body = R"({"key":""})";
  response.at = at;
  response.secret_at = 8;
  response.secret_of = stream;
  response.secret = kept;
  const auto encoded = encode(IdempotentResponseRecorded{response});
  ASSERT_TRUE(
      log_->append(
              {stream, 0, {NewEvent{base::new_id("evt"), encoded.type, "admin", at, encoded.data}}})
          .ok());

  EXPECT_EQ(*destroy_unneeded_keys(*log_, *secrets_, at + 1000), 1u);  // the unrecorded one
  EXPECT_EQ(*secrets_->open(stream, kept), "vk_kept");
  EXPECT_FALSE(secrets_->open(unrecorded_stream, unrecorded).ok());
  EXPECT_EQ(*destroy_unneeded_keys(*log_, *secrets_, at + kIdempotencyWindowMs), 1u);
  auto expired = secrets_->open(stream, kept);
  ASSERT_FALSE(expired.ok());
  EXPECT_EQ(expired.error().code, base::ErrorCode::kNotFound);
}

// A folder written before secrets were sealed: plain secrets in two webhook
// events and in a recorded idempotent response.
TEST_F(KeyStoreTest, MigrationSealsEveryPlainSecretInPlaceAndLeavesNoneInTheFiles) {
  using namespace events;
  const std::string plain_one = "whsec_q8Rk2ZpLx0VtNw4HcYbJ7sMfUe3D";
  const std::string plain_two = "whsec_Gm5TiXo1WaP9vKzQ6rLhBn0EyCd2";
  const std::string created =
      R"({"id":"whk_1","account":"acme","url":"https://h/x","events":["*"],"description":"",)"
      R"("active":true,"disabledReason":"","created":1,"updated":1,"secret":")" +
      plain_one + R"(","previousSecret":"","previousSecretUntil":0})";
  const std::string rotated =
      R"({"id":"whk_1","secret":")" + plain_two + R"(","previousSecret":")" + plain_one +
      R"(","previousSecretUntil":)" + std::to_string(base::now_millis() + kSecretOverlapMillis) +
      R"(,"at":2})";
  IdempotentResponse response;
  response.key = "k1";
  response.fingerprint = "f";
  response.status = 200;
  response.content_type = "application/json";
  response.body = R"({"id":"whk_1","secret":")" + plain_two + R"("})";
  response.at = base::now_millis();
  const auto recorded = encode(IdempotentResponseRecorded{response});
  ASSERT_TRUE(
      log_->append({webhook_stream("whk_1"),
                    0,
                    {NewEvent{"evt_1", std::string(kWebhookCreatedV1), "acme", 1, created},
                     NewEvent{"evt_2", std::string(kWebhookSecretRotatedV1), "acme", 2, rotated}}})
          .ok());
  ASSERT_TRUE(
      log_->append(
              {"idempotency-x", 0, {NewEvent{"evt_3", recorded.type, "acme", 3, recorded.data}}})
          .ok());
  ASSERT_TRUE(database_->db()
                  .Put(rocksdb::WriteOptions(), database_->views(), "idempotency/idempotency-x",
                       recorded.data)
                  .ok());
  // The first start of the old code: in the write-ahead log, and flushed to a table.
  ASSERT_TRUE(compact_all(*database_).ok());
  ASSERT_TRUE(folder_holds(folder_.path(), plain_one));

  auto report = seal_plain_secrets(*database_, *secrets_);
  ASSERT_TRUE(report.ok()) << report.error().message;
  EXPECT_EQ(report->events, 2u);
  EXPECT_EQ(report->responses, 1u);
  EXPECT_FALSE(folder_holds(folder_.path(), plain_one));
  EXPECT_FALSE(folder_holds(folder_.path(), plain_two));

  // The same facts at the same places, their secrets sealed.
  auto records = log_->read_all(1, 10).value();
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].event.id, "evt_1");
  EXPECT_EQ(records[0].event.type, kWebhookCreatedV2);
  EXPECT_EQ(records[1].event.type, kWebhookSecretRotatedV2);
  WebhookState state;
  for (int i = 0; i < 2; ++i) {
    state =
        evolve(state, decode_webhook_event(records[i].event.type, records[i].event.data).value());
  }
  EXPECT_EQ(*secrets_->open("whk_1", state.webhook->secret), plain_two);
  EXPECT_EQ(*secrets_->open("whk_1", state.webhook->previous_secret), plain_one);
  auto migrated = decode_idempotent_response(records[2].event.data).value().response;
  ASSERT_TRUE(migrated.secret_at.has_value());
  EXPECT_EQ(migrated.secret, state.webhook->secret);
  EXPECT_EQ(migrated.secret_of, "whk_1");
  EXPECT_EQ(migrated.body.find("whsec_"), std::string::npos);
  std::string view;
  ASSERT_TRUE(
      database_->db()
          .Get(rocksdb::ReadOptions(), database_->views(), "idempotency/idempotency-x", &view)
          .ok());
  EXPECT_EQ(view, records[2].event.data);

  // Once only.
  EXPECT_FALSE(seal_plain_secrets(*database_, *secrets_)->ran);
}

TEST(SecretRedaction, ReplayShowsAMarkerForEverySecret) {
  events::RecordedEvent record;
  record.event.type = "WebhookCreated.v2";
  record.event.data =
      R"({"id":"whk_1","secret":{"key":"dk_1","sealed":"AAAA"},"body":"{\"secret\":\"whsec_abc+/=\"}"})";
  const auto shown = events::without_secrets(record).event.data;
  EXPECT_EQ(shown.find("AAAA"), std::string::npos) << shown;
  EXPECT_EQ(shown.find("whsec_abc"), std::string::npos) << shown;
  EXPECT_NE(shown.find(events::kSecretWithheld), std::string::npos) << shown;
  EXPECT_NE(shown.find("whk_1"), std::string::npos) << shown;
}

TEST(SecretRedaction, ReplayWithholdsAnApiKeyInARecordedResponseButNotOtherNames) {
  events::RecordedEvent record;
  record.event.type = "IdempotentResponseRecorded.v1";
  record.event.data =
      R"({"body":"{\"id\":\"key_1\",\"key\":\"vk_0123abcd\",\"account\":\"team-vk_x\"}"})";
  const auto shown = events::without_secrets(record).event.data;
  EXPECT_EQ(shown.find("vk_0123abcd"), std::string::npos) << shown;
  EXPECT_NE(shown.find(events::kSecretWithheld), std::string::npos) << shown;
  EXPECT_NE(shown.find("team-vk_x"), std::string::npos) << shown;  // not a key: mid-word
  EXPECT_NE(shown.find("key_1"), std::string::npos) << shown;
}

}  // namespace
}  // namespace vouch::secrets
