#include <gtest/gtest.h>

#include "base/clock.hpp"
#include "events/access.hpp"
#include "events/generated_test.hpp"
#include "events/project.hpp"
#include "events/run.hpp"
#include "events/webhook.hpp"
#include "events/webhook_delivery.hpp"
#include "store/key_coding.hpp"
#include "store/record_codec.hpp"

namespace vouch {
namespace {

TEST(ProjectCodec, EveryEventRoundTrips) {
  const std::vector<events::ProjectEvent> all{
      events::ProjectCreated{
          events::Project{"prj_1", "acme", "shop \"quoted\" ✓", "", "jest", 72.5, 1, 2}},
      events::ProjectUpdated{"prj_1", {std::string("n"), std::nullopt, 10.0}, 3},
      events::ProjectUpdated{"prj_1", {std::nullopt, std::string("jest"), std::nullopt}, 4},
      events::ProjectDeleted{"prj_1", 5}};
  for (const auto& event : all) {
    auto encoded = events::encode(event);
    ASSERT_TRUE(events::is_project_event(encoded.type));
    auto decoded = events::decode_project_event(encoded.type, encoded.data);
    ASSERT_TRUE(decoded.ok()) << encoded.data;
    EXPECT_EQ(events::encode(*decoded).data, encoded.data);
  }
}

// The stored form is the log's format: the codecs may change, the text they
// write may not (old events must keep decoding to the same values).
TEST(StoredForm, EventsAndRecordsAreWrittenExactlyAsBefore) {
  events::DeliveryAttempted attempt{"dlv_1",       "whk_1", "evt_1", 12, "project.created",
                                    "https://h/x", 3,       503,     44, false,
                                    "boom",        88,      true,    77};
  events::TestRun run;
  run.id = "run_1";
  run.account = "acme";
  run.test_id = "tst_1";
  run.project_id = "prj_1";
  run.environment = events::RunEnvironment{"20", {{"left-pad", "1.3.0"}}};
  run.created = 1700000000123;
  const std::pair<std::string, std::string> cases[] = {
      {events::encode(events::ProjectEvent{events::ProjectUpdated{
                          "prj_1", {std::nullopt, "jest", std::nullopt}, 31}})
           .data,
       R"({"id":"prj_1","at":31,"framework":"jest"})"},
      {events::encode(
           events::WebhookEvent{events::WebhookSecretRotated{"whk_1", {"dk_1", "czE="}, 100, 8}})
           .data,
       R"({"id":"whk_1","secret":{"key":"dk_1","sealed":"czE="},"previousSecretUntil":100,"at":8})"},
      {events::encode(attempt).data,
       R"({"delivery":"dlv_1","webhook":"whk_1","eventId":"evt_1","eventPosition":12,)"
       R"("event":"project.created","url":"https://h/x","attempt":3,"status":503,"duration":44,)"
       R"("success":false,"error":"boom","manual":true,"at":77,"nextAttempt":88})"},
      {events::encode(events::RunEvent{events::RunStarted{run}}).data,
       R"({"runId":"run_1","testId":"tst_1","projectId":"prj_1","environment":{"nodeVersion":"20",)"
       R"("dependencies":{"left-pad":"1.3.0"}},"created":"2023-11-14T22:13:20.123Z"})"},
      {events::encode(events::RunEvent{events::RunFailed{
                          "run_1",
                          "tst_1",
                          "prj_1",
                          "error",
                          "error",
                          "limit",
                          {},
                          events::RunError{"wall_time_limit", "too long"},
                          std::nullopt,
                          5,
                          1700000002000}})
           .data,
       R"({"runId":"run_1","testId":"tst_1","projectId":"prj_1","outcome":"error","reason":"error",)"
       R"("detail":"limit","failures":[],"error":{"code":"wall_time_limit","detail":"too long"},)"
       R"("results":null,"duration":5,"completed":"2023-11-14T22:13:22.000Z"})"},
      {events::encode(
           events::RunEvent{events::CoverageUpdated{"prj_1", "tst_1", "run_1", std::nullopt,
                                                    events::Coverage{1, 2, 3, 4.5}, 1700000003000}})
           .data,
       R"({"projectId":"prj_1","testId":"tst_1","runId":"run_1","previous":null,)"
       R"("current":{"statements":1E0,"branches":2E0,"functions":3E0,"lines":4.5E0},)"
       R"("updated":"2023-11-14T22:13:23.000Z"})"},
      {events::encode_run(run),
       R"({"runId":"run_1","account":"acme","testId":"tst_1","projectId":"prj_1","environment":)"
       R"({"nodeVersion":"20","dependencies":{"left-pad":"1.3.0"}},"status":"running",)"
       R"("outcome":"","results":null,"failures":[],"error":null,"duration":0,)"
       R"("created":1700000000123,"completed":0})"},
  };
  for (const auto& [written, expected] : cases) EXPECT_EQ(written, expected);
}

TEST(ProjectCodec, CorruptDataIsAnInternalErrorNotACrash) {
  for (const char* data : {"", "[]", "{\"id\":1}", "{\"project\":"}) {
    auto decoded = events::decode_project_event(events::kProjectCreatedV1, data);
    ASSERT_FALSE(decoded.ok()) << data;
    EXPECT_EQ(decoded.error().code, base::ErrorCode::kInternal);
  }
}

TEST(GeneratedTestCodec, TheEnvironmentRoundTripsAndOlderEventsHaveNone) {
  events::GeneratedTest test;
  test.id = "tst_1";
  test.project_id = "prj_1";
  test.framework = "jest";
  test.summary = R"({"testsKept":2})";
  test.environment = {"20", {{"is-number", "7.0.0"}, {"@scope/pkg", "^1"}}};
  test.created = 5;
  auto encoded = events::encode(events::TestGenerated{test});
  auto decoded = events::decode_test_generated(encoded.data, "acme");
  ASSERT_TRUE(decoded.ok()) << encoded.data;
  EXPECT_EQ(decoded->test.environment.node_version, "20");
  EXPECT_EQ(decoded->test.environment.dependencies, test.environment.dependencies);
  auto record = events::decode_generated_test(events::encode_generated_test(decoded->test));
  ASSERT_TRUE(record.ok());
  EXPECT_EQ(record->environment.dependencies, test.environment.dependencies);

  // Recorded before generation took an environment.
  auto older = events::decode_test_generated(
      R"({"testId":"tst_0","projectId":"p","framework":"jest","threshold":80,"files":[],)"
      R"("sources":[],"summary":{},"created":1})",
      "acme");
  ASSERT_TRUE(older.ok());
  EXPECT_TRUE(older->test.environment.node_version.empty());
  EXPECT_TRUE(older->test.environment.dependencies.empty());
  auto corrupt = events::decode_test_generated(
      R"({"testId":"t","projectId":"p","framework":"jest","threshold":80,"files":[],)"
      R"("sources":[],"summary":{},"environment":{"nodeVersion":"20","dependencies":{"a":1}},)"
      R"("created":1})",
      "acme");
  ASSERT_FALSE(corrupt.ok());
  EXPECT_EQ(corrupt.error().code, base::ErrorCode::kInternal);
}

TEST(AccessCodec, KeyAndAccountEventsRoundTrip) {
  events::ApiKeyEvent issued =
      events::ApiKeyIssued{"key_1", "acme", "ci", {"admin", "tests:read"}, "abc", 9};
  auto encoded = events::encode(issued);
  auto decoded = events::decode_api_key_event(encoded.type, encoded.data);
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(std::get<events::ApiKeyIssued>(*decoded).scopes.size(), 2u);
  events::AccountEvent opened = events::AccountOpened{"acme", events::Plan::kPro, 1};
  auto account =
      events::decode_account_event(events::encode(opened).type, events::encode(opened).data);
  ASSERT_TRUE(account.ok());
  EXPECT_EQ(std::get<events::AccountOpened>(*account).plan, events::Plan::kPro);
}

TEST(RecordCodec, RecordRoundTripsWithDataSplicedIn) {
  events::RecordedEvent record{
      42, "project-prj_1", 3,
      events::NewEvent{"evt_1", "ProjectDeleted.v1", "acme", 7, R"({"id":"prj_1","at":7})"}};
  const auto bytes = store::encode_record(record);
  auto decoded = store::decode_record(bytes);
  ASSERT_TRUE(decoded.ok()) << bytes;
  EXPECT_EQ(decoded->position, 42u);
  EXPECT_EQ(decoded->version, 3u);
  EXPECT_EQ(decoded->event.data, record.event.data);
  EXPECT_EQ(store::encode_record(*decoded), bytes);
}

// A damaged record whose data holds a number beyond double's range would
// decode into data JSON cannot print back: it is refused (found by fuzzing).
TEST(RecordCodec, DataWithANumberOutOfRangeIsCorrupt) {
  auto decoded = store::decode_record(
      R"({"position":1,"stream":"project-p","version":1,"id":"evt_1","type":"ProjectDeleted.v1",)"
      R"("account":"a","created":1,"data":{"id":"p","at":1E99999}})");
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.error().message.find("out of range"), std::string::npos);
}

// The event log's filter peeks at a record's type without decoding it; a
// type JSON had to escape is left to the decoder (found by fuzzing).
TEST(RecordCodec, PeekedTypeMatchesTheDecodedOneOrDeclines) {
  events::RecordedEvent record{
      1, "project-p", 1, events::NewEvent{"evt_1", "ProjectDeleted.v1", "a", 1, R"({"id":"p"})"}};
  EXPECT_EQ(store::peek_record_type(store::encode_record(record)), "ProjectDeleted.v1");
  record.event.type = "Project\"Deleted\\.v1";
  const auto bytes = store::encode_record(record);
  EXPECT_FALSE(store::peek_record_type(bytes).has_value()) << bytes;
  record.stream = R"(a,"type":"Fake.v1)";
  record.event.type = "ProjectDeleted.v1";
  EXPECT_EQ(store::peek_record_type(store::encode_record(record)), "ProjectDeleted.v1");
}

TEST(KeyCoding, BigEndianKeysSortNumerically) {
  EXPECT_LT(store::keys::event(255), store::keys::event(256));
  EXPECT_LT(store::keys::stream_index("s", 9), store::keys::stream_index("s", 10));
  EXPECT_EQ(store::keys::decode_u64(store::keys::encode_u64(0x0102030405060708ULL)),
            0x0102030405060708ULL);
  EXPECT_FALSE(store::keys::decode_u64("short").has_value());
  // One stream's index never shares a prefix with a longer stream name's.
  EXPECT_NE(store::keys::stream_index("project-a", 1)
                .rfind(store::keys::stream_index_prefix("project-ab"), 0),
            0u);
}

// Data folders hold these keys: their bytes must not change without a new
// read-model format (store/read_model_format.hpp).
TEST(KeyCoding, ReadModelRowsKeepTheirStoredForm) {
  using namespace std::string_literals;
  namespace keys = store::keys;
  EXPECT_EQ(keys::record("projects", "prj_1"), "projects/id/prj_1");
  EXPECT_EQ(keys::record_position("projects", "prj_1"), "projects/pos/prj_1");
  EXPECT_EQ(keys::owner_index(keys::index_name("projects", "acct"), "acme", 1),
            "projects/acct/acme\0\0\0\0\0\0\0\0\1"s);
  EXPECT_EQ(keys::access_key_by_hash("ab12"), "access/hash/ab12");
  EXPECT_EQ(keys::access_key("key_1"), "access/key/key_1");
  EXPECT_EQ(keys::access_account("acme"), "access/account/acme");
  EXPECT_EQ(keys::project_snapshot("prj_1"), "projects/snapshot/prj_1");
  EXPECT_EQ(keys::project_imported_snapshot("prj_1", "snap"), "projects/snapshots/prj_1/snap");
  EXPECT_EQ(keys::project_coverage("prj_1"), "tests/coverage/prj_1");
  EXPECT_EQ(keys::generating_tests_prefix(), "tests/generating/");
  EXPECT_EQ(keys::generating_test("tst_1"), "tests/generating/tst_1");
  EXPECT_EQ(keys::running_runs_prefix(), "runs/running/");
  EXPECT_EQ(keys::running_run("run_1"), "runs/running/run_1");
  EXPECT_EQ(keys::idempotent_response("idempotency-ab"), "idempotency/idempotency-ab");
  EXPECT_EQ(keys::delivery("dlv_1"), "deliveries/id/dlv_1");
  EXPECT_EQ(keys::webhook_deliveries_prefix("whk_1"), "deliveries/hook/whk_1\0"s);
  EXPECT_EQ(keys::webhook_delivery("whk_1", 2), "deliveries/hook/whk_1\0\0\0\0\0\0\0\0\2"s);
  EXPECT_EQ(keys::pending_deliveries_prefix(), "deliveries/pending/");
  EXPECT_EQ(keys::pending_delivery("whk_1", "evt_1"), "deliveries/pending/whk_1\0evt_1"s);
  EXPECT_EQ(keys::delivery_attempts("whk_1", "evt_1"), "deliveries/attempts/whk_1\0evt_1"s);
  EXPECT_EQ(keys::webhook_failing_since("whk_1"), "deliveries/failing-since/whk_1");
}

TEST(Clock, TimestampsAreIsoUtcWithMilliseconds) {
  EXPECT_EQ(base::format_timestamp(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(base::format_timestamp(1795341600123), "2026-11-22T10:00:00.123Z");
  EXPECT_EQ(base::format_timestamp(-1), "1969-12-31T23:59:59.999Z");
  EXPECT_EQ(base::format_timestamp(951782400000), "2000-02-29T00:00:00.000Z");
  EXPECT_EQ(base::format_timestamp(253402300799999), "9999-12-31T23:59:59.999Z");
  EXPECT_EQ(base::format_timestamp(253402300800000), "9999-12-31T23:59:59.999Z");
  EXPECT_EQ(base::format_timestamp(-62167219200001), "0000-01-01T00:00:00.000Z");
  for (const base::Millis at : {0LL, 86399999LL, 1795341600123LL, 4102444800000LL}) {
    EXPECT_EQ(base::parse_timestamp(base::format_timestamp(at)), at);
  }
  EXPECT_EQ(base::parse_timestamp("2026-11-22T10:00:00.123Z"), 1795341600123);
  EXPECT_FALSE(base::parse_timestamp("2026-11-22 10:00:00").has_value());
}

}  // namespace
}  // namespace vouch
