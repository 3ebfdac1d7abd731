#include "store/read_models.hpp"

#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include "base/ids.hpp"
#include "events/access.hpp"
#include "events/generated_test.hpp"
#include "events/project.hpp"
#include "events/webhook.hpp"
#include "store/key_coding.hpp"
#include "store/read_model_format.hpp"
#include "temp_folder.hpp"

namespace vouch::store {
namespace {

class ReadModelsTest : public ::testing::Test {
 protected:
  void SetUp() override { open(); }
  void open() {
    log_.reset();
    models_.reset();
    database_.reset();
    database_ = std::move(Database::open(folder_.path() / "data").value());
    ASSERT_TRUE(prepare_read_model_format(*database_).ok());
    models_ = std::make_unique<ReadModels>(*database_);
    log_ = std::move(EventLog::open(*database_).value());
    ASSERT_TRUE(models_->projector().catch_up(*log_).ok());
    log_->add_listener(&models_->projector());
  }

  template <class Event>
  void append(const std::string& stream, const Event& event, const std::string& account = "acme") {
    auto encoded = events::encode(event);
    ASSERT_TRUE(log_->append({stream,
                              kAnyVersion,
                              {{base::new_id("evt_"), encoded.type, account, 1, encoded.data}}})
                    .ok());
  }

  void create(const std::string& id, const std::string& account = "acme") {
    events::ProjectEvent event =
        events::ProjectCreated{events::Project{id, account, "n-" + id, "", "jest", 80, 1, 1}};
    append(events::project_stream(id), event, account);
  }

  // Attempt `number` of delivering evt_1 to whk_1.
  static events::DeliveryAttempted attempt(std::string id, std::uint32_t number, bool success,
                                           std::optional<base::Millis> next, bool manual = false) {
    events::DeliveryAttempted out;
    out.delivery_id = std::move(id);
    out.webhook_id = "whk_1";
    out.event_id = "evt_1";
    out.event_position = 1;
    out.event_type = "project.created";
    out.url = "https://example.com/h";
    out.attempt = number;
    out.status = success ? 200 : 503;
    out.success = success;
    out.error = success ? "" : "the receiver answered 503";
    out.next_attempt = next;
    out.manual = manual;
    out.at = 1000 * number;
    return out;
  }

  testing::TempFolder folder_;
  std::unique_ptr<Database> database_;
  std::unique_ptr<ReadModels> models_;
  std::unique_ptr<EventLog> log_;
};

TEST_F(ReadModelsTest, ProjectsAreVisibleToTheirAccountOnly) {
  create("prj_a");
  auto mine = models_->projects().find("acme", "prj_a");
  ASSERT_TRUE(mine.ok());
  ASSERT_TRUE(mine->has_value());
  EXPECT_EQ((*mine)->name, "n-prj_a");
  EXPECT_FALSE(models_->projects().find("other", "prj_a")->has_value());
}

// Each find below follows a find of the same project, whose answer the read
// model keeps in memory: what a commit changed is never answered from there.
TEST_F(ReadModelsTest, UpdatesAndDeletesFoldIn) {
  create("prj_a");
  EXPECT_EQ((*models_->projects().find("acme", "prj_a"))->name, "n-prj_a");
  append(events::project_stream("prj_a"),
         events::ProjectEvent{
             events::ProjectUpdated{"prj_a", {std::string("renamed"), std::nullopt, 42.0}, 9}});
  auto updated = models_->projects().find("acme", "prj_a");
  EXPECT_EQ((*updated)->name, "renamed");
  EXPECT_EQ((*updated)->threshold, 42.0);
  EXPECT_EQ((*updated)->updated, 9);
  append(events::project_stream("prj_a"),
         events::ProjectEvent{events::ProjectDeleted{"prj_a", 10}});
  EXPECT_FALSE(models_->projects().find("acme", "prj_a")->has_value());
  EXPECT_TRUE(models_->projects().list("acme", std::nullopt, 10)->items.empty());
}

TEST_F(ReadModelsTest, ListPagesOldestFirstWithCursor) {
  for (int i = 0; i < 5; ++i) create("prj_" + std::to_string(i));
  create("prj_x", "other");
  auto first = models_->projects().list("acme", std::nullopt, 2);
  ASSERT_TRUE(first.ok());
  ASSERT_EQ(first->items.size(), 2u);
  EXPECT_TRUE(first->has_more);
  EXPECT_EQ(first->items[0].id, "prj_0");
  auto rest = models_->projects().list("acme", first->items[1].id, 10);
  ASSERT_EQ(rest->items.size(), 3u);
  EXPECT_FALSE(rest->has_more);
  EXPECT_EQ(rest->items[2].id, "prj_4");
  auto foreign_cursor = models_->projects().list("acme", std::string("prj_x"), 10);
  ASSERT_FALSE(foreign_cursor.ok());
  EXPECT_EQ(foreign_cursor.error().code, base::ErrorCode::kInvalid);
}

// Grants found are kept in memory (access_view.hpp): a plan change or a
// revocation after a lookup must still show in the next one.
// An asynchronous generation: the test exists, generating, from its acceptance;
// its end (tests or a failure) keeps its place in the project's list.
TEST_F(ReadModelsTest, AnAcceptedGenerationIsGeneratingUntilItsEnd) {
  create("prj_a");
  events::GeneratedTest test;
  test.id = "tst_1";
  test.account = "acme";
  test.project_id = "prj_a";
  test.framework = "jest";
  test.summary = "{}";
  test.created = test.updated = 5;
  append(events::test_stream("tst_1"), events::TestGenerationAccepted{test});
  test.id = "tst_2";
  append(events::test_stream("tst_2"), events::TestGenerationAccepted{test});
  EXPECT_EQ((*models_->tests().find("acme", "tst_1"))->status, "generating");
  EXPECT_EQ(models_->tests().generating()->size(), 2u);

  test.id = "tst_1";
  test.files = {{"__tests__/a.test.js", "test('a', () => {});"}};
  append(events::test_stream("tst_1"), events::TestGenerated{test});
  append(events::test_stream("tst_2"),
         events::TestGenerationFailed{"tst_2", {"interrupted", "vouchd stopped"}, 9});
  auto generated = *models_->tests().find("acme", "tst_1");
  EXPECT_EQ(generated->status, "pending");
  EXPECT_EQ(generated->files.size(), 1u);
  EXPECT_FALSE(generated->error);
  auto failed = *models_->tests().find("acme", "tst_2");
  EXPECT_EQ(failed->status, "failed");
  ASSERT_TRUE(failed->error);
  EXPECT_EQ(failed->error->code, "interrupted");
  EXPECT_EQ(failed->updated, 9);
  EXPECT_TRUE(models_->tests().generating()->empty());
  auto page = models_->tests().list("acme", "prj_a", std::nullopt, 10);
  ASSERT_EQ(page->items.size(), 2u);
  EXPECT_EQ(page->items[0].id, "tst_1");
}

TEST_F(ReadModelsTest, KeysAreFoundByHashUntilRevoked) {
  append(events::account_stream("acme"),
         events::AccountEvent{events::AccountOpened{"acme", events::Plan::kPro, 1}});
  append(events::apikey_stream("key_1"), events::ApiKeyEvent{events::ApiKeyIssued{
                                             "key_1", "acme", "ci", {"projects:read"}, "h1", 1}});
  auto grant = models_->access().find_by_hash("h1");
  ASSERT_TRUE(grant.ok());
  ASSERT_TRUE(grant->has_value());
  EXPECT_EQ((*grant)->plan, events::Plan::kPro);
  EXPECT_EQ((*grant)->scopes, std::vector<std::string>{"projects:read"});
  append(events::account_stream("acme"),
         events::AccountEvent{events::AccountPlanChanged{"acme", events::Plan::kEnterprise, 2}});
  EXPECT_EQ((*models_->access().find_by_hash("h1"))->plan, events::Plan::kEnterprise);
  append(events::apikey_stream("key_1"), events::ApiKeyEvent{events::ApiKeyRevoked{"key_1", 2}});
  EXPECT_FALSE(models_->access().find_by_hash("h1")->has_value());
  EXPECT_TRUE((*models_->access().find_key("key_1"))->revoked);
}

TEST_F(ReadModelsTest, CatchUpAfterReopenAndRebuildAreEqual) {
  for (int i = 0; i < 20; ++i) create("prj_" + std::to_string(i));
  append(events::project_stream("prj_3"), events::ProjectEvent{events::ProjectDeleted{"prj_3", 5}});
  open();
  EXPECT_EQ(models_->projects().list("acme", std::nullopt, 100)->items.size(), 19u);
  auto differences = verify_read_models(*database_, *log_, folder_.path() / "scratch");
  ASSERT_TRUE(differences.ok());
  EXPECT_TRUE(differences->empty()) << differences->front();
}

TEST_F(ReadModelsTest, DeliveryAttemptsFoldIntoLogRetriesAndCounts) {
  const auto& deliveries = models_->deliveries();
  EXPECT_EQ(*deliveries.attempts("whk_1", "evt_1"), 0u);

  append(events::deliveries_stream("whk_1"), attempt("dlv_1", 1, false, 5000));
  EXPECT_EQ(*deliveries.attempts("whk_1", "evt_1"), 1u);
  EXPECT_EQ(*deliveries.attempts("whk_2", "evt_1"), 0u);
  ASSERT_EQ(deliveries.pending()->size(), 1u);
  EXPECT_EQ(**deliveries.failing_since("whk_1"), 1000);

  // A failed manual redelivery leaves the pending retry alone.
  append(events::deliveries_stream("whk_1"), attempt("dlv_2", 2, false, std::nullopt, true));
  EXPECT_EQ(*deliveries.attempts("whk_1", "evt_1"), 2u);
  ASSERT_EQ(deliveries.pending()->size(), 1u);

  append(events::deliveries_stream("whk_1"), attempt("dlv_3", 3, true, std::nullopt));
  EXPECT_EQ(*deliveries.attempts("whk_1", "evt_1"), 3u);
  EXPECT_TRUE(deliveries.pending()->empty());
  EXPECT_FALSE(deliveries.failing_since("whk_1")->has_value());

  auto page = deliveries.list("whk_1", std::nullopt, 2);
  ASSERT_TRUE(page.ok());
  ASSERT_EQ(page->items.size(), 2u);
  EXPECT_EQ(page->items[0].delivery_id, "dlv_3");
  EXPECT_TRUE(page->has_more);
  auto rest = deliveries.list("whk_1", std::string("dlv_2"), 10);
  ASSERT_TRUE(rest.ok());
  ASSERT_EQ(rest->items.size(), 1u);
  EXPECT_EQ(rest->items[0].delivery_id, "dlv_1");
  EXPECT_FALSE(deliveries.list("whk_2", std::string("dlv_2"), 10).ok());
  EXPECT_EQ((*deliveries.find("dlv_2"))->attempt, 2u);

  open();
  EXPECT_EQ(*models_->deliveries().attempts("whk_1", "evt_1"), 3u);
  auto differences = verify_read_models(*database_, *log_, folder_.path() / "scratch");
  ASSERT_TRUE(differences.ok());
  EXPECT_TRUE(differences->empty()) << differences->front();
}

TEST_F(ReadModelsTest, DeliveryEntriesPointAtTheAttemptInTheLog) {
  append(events::deliveries_stream("whk_1"), attempt("dlv_1", 1, true, std::nullopt));

  // The entry is the attempt's log position, not a copy of the attempt.
  std::string entry;
  ASSERT_TRUE(database_->db()
                  .Get(rocksdb::ReadOptions(), database_->views(), "deliveries/id/dlv_1", &entry)
                  .ok());
  ASSERT_EQ(entry.size(), 8u);
  const auto found = models_->deliveries().find("dlv_1");
  ASSERT_TRUE(found.ok() && found->has_value());
  EXPECT_EQ((*found)->url, "https://example.com/h");
  EXPECT_EQ((*found)->status, 200u);

  const auto page = models_->deliveries().list("whk_1", std::nullopt, 10);
  ASSERT_TRUE(page.ok());
  ASSERT_EQ(page->items.size(), 1u);
  EXPECT_EQ(page->items[0].url, "https://example.com/h");
  EXPECT_TRUE(models_->deliveries().list("whk_1", std::string("dlv_1"), 10)->items.empty());
}

TEST_F(ReadModelsTest, ReadModelsOfAnotherFormatAreRebuiltFromTheLog) {
  create("prj_a");
  // A fresh folder records the current format and keeps its read models.
  std::string format;
  ASSERT_TRUE(
      database_->db()
          .Get(rocksdb::ReadOptions(), database_->meta(), keys::read_model_format(), &format)
          .ok());
  EXPECT_EQ(keys::decode_u64(format), kReadModelFormat);
  open();
  EXPECT_TRUE(models_->projects().find("acme", "prj_a")->has_value());

  // A folder from before formats were recorded, with a key the current
  // format does not write: cleared, then rebuilt by the catch-up.
  ASSERT_TRUE(database_->db()
                  .Delete(rocksdb::WriteOptions(), database_->meta(), keys::read_model_format())
                  .ok());
  ASSERT_TRUE(
      database_->db().Put(rocksdb::WriteOptions(), database_->views(), "stale/key", "x").ok());
  log_.reset();
  models_.reset();
  auto cleared = prepare_read_model_format(*database_);
  ASSERT_TRUE(cleared.ok());
  EXPECT_EQ(*cleared, std::optional<std::uint64_t>(1));
  std::string value;
  EXPECT_TRUE(database_->db()
                  .Get(rocksdb::ReadOptions(), database_->views(), "stale/key", &value)
                  .IsNotFound());
  EXPECT_TRUE(database_->db()
                  .Get(rocksdb::ReadOptions(), database_->views(), "projects/id/prj_a", &value)
                  .IsNotFound());
  open();  // prepares again (nothing to do), then catches up from position 1
  EXPECT_TRUE(models_->projects().find("acme", "prj_a")->has_value());
  auto differences = verify_read_models(*database_, *log_, folder_.path() / "scratch");
  ASSERT_TRUE(differences.ok());
  EXPECT_TRUE(differences->empty()) << differences->front();
}

TEST_F(ReadModelsTest, VerifySpotsADamagedReadModel) {
  create("prj_a");
  rocksdb::WriteOptions options;
  ASSERT_TRUE(database_->db().Put(options, database_->views(), "projects/id/prj_a", "{}").ok());
  auto differences = verify_read_models(*database_, *log_, folder_.path() / "scratch");
  ASSERT_TRUE(differences.ok());
  ASSERT_EQ(differences->size(), 1u);
  EXPECT_NE(differences->front().find("projects/id/prj_a"), std::string::npos);
}

}  // namespace
}  // namespace vouch::store
