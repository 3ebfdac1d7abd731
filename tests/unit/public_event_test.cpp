// The one mapping from stored events to public events (events/public_types.hpp).
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "base/clock.hpp"
#include "events/access.hpp"
#include "events/project.hpp"
#include "events/public_types.hpp"
#include "events/run.hpp"

namespace vouch {
namespace {

constexpr base::Millis kAt = 1795860000123;  // 2026-11-28T…

events::RecordedEvent recorded(const events::EncodedEvent& encoded) {
  events::RecordedEvent record;
  record.position = 7;
  record.stream = "run-run_1";
  record.version = 1;
  record.event = {"evt_1", encoded.type, "acme", kAt, encoded.data};
  return record;
}

boost::json::object public_data(const events::EncodedEvent& encoded, std::string* type = nullptr,
                                std::string* project_id = nullptr) {
  auto event = events::to_public_event(recorded(encoded));
  EXPECT_TRUE(event.ok());
  if (!event.ok() || !*event) return {};
  if (type) *type = (*event)->type;
  if (project_id) *project_id = (*event)->project_id;
  return (*event)->data;
}

// Names that are storage or secrets, never public: at any depth.
void expect_no_internal_field(const boost::json::value& value) {
  if (value.is_array()) {
    for (const auto& item : value.get_array()) expect_no_internal_field(item);
    return;
  }
  if (!value.is_object()) return;
  for (const auto& [key, item] : value.get_object()) {
    for (const char* internal :
         {"account", "secret", "hash", "keyHash", "sources", "content", "at"}) {
      EXPECT_NE(key, internal) << boost::json::serialize(value);
    }
    expect_no_internal_field(item);
  }
}

events::RunResults results() { return {12, 11, 1, {80.0, 72.5, 100.0, 81.25}}; }

TEST(PublicEvent, ProjectCreatedIsTheProjectResource) {
  const events::Project project{"prj_1", "acme", "shop", "https://git.example/shop.git",
                                "jest",  80.0,   kAt,    kAt};
  std::string type, project_id;
  const auto data =
      public_data(events::encode(events::ProjectCreated{project}), &type, &project_id);
  EXPECT_EQ(type, "project.created");
  EXPECT_EQ(project_id, "prj_1");
  const auto expected = boost::json::parse(
      R"({"id":"prj_1","name":"shop","repository":"https://git.example/shop.git",)"
      R"("config":{"framework":"jest","coverage":{"threshold":80}},)"
      R"("created":"2026-11-28T10:00:00.123Z","updated":"2026-11-28T10:00:00.123Z"})");
  EXPECT_EQ(boost::json::value(data), expected) << boost::json::serialize(data);
  // 80, an integer: not the stored double's "8E1".
  EXPECT_TRUE(data.at("config").at("coverage").at("threshold").is_int64());
  expect_no_internal_field(data);
}

TEST(PublicEvent, ProjectUpdatedCarriesWhatChangedInTheProjectsShape) {
  const auto data = public_data(
      events::encode(events::ProjectUpdated{"prj_1", {std::nullopt, std::nullopt, 72.5}, kAt}));
  EXPECT_EQ(boost::json::value(data),
            boost::json::parse(R"({"id":"prj_1","config":{"coverage":{"threshold":72.5}},)"
                               R"("updated":"2026-11-28T10:00:00.123Z"})"));
  const auto renamed = public_data(events::encode(
      events::ProjectUpdated{"prj_1", {std::string("n"), std::nullopt, std::nullopt}, kAt}));
  EXPECT_EQ(renamed.at("name"), "n");
  EXPECT_FALSE(renamed.contains("config"));
  const auto deleted = public_data(events::encode(events::ProjectDeleted{"prj_1", kAt}));
  EXPECT_EQ(boost::json::value(deleted),
            boost::json::parse(R"({"id":"prj_1","deleted":"2026-11-28T10:00:00.123Z"})"));
}

TEST(PublicEvent, ProjectImportedIsTheImportsAnswerWithoutSkipped) {
  events::SnapshotSummary snapshot{"snp_0123456789abcdef01234567", 3, 2048, "git", "", "a1b2c3"};
  std::string type, project_id;
  const auto data = public_data(events::encode(events::ProjectImported{"prj_1", snapshot, kAt}),
                                &type, &project_id);
  EXPECT_EQ(type, "project.imported");
  EXPECT_EQ(project_id, "prj_1");
  EXPECT_EQ(
      boost::json::value(data),
      boost::json::parse(R"({"projectId":"prj_1","snapshotId":"snp_0123456789abcdef01234567",)"
                         R"("files":3,"bytes":2048,"source":"git","ref":null,)"
                         R"("commit":"a1b2c3","created":"2026-11-28T10:00:00.123Z"})"))
      << boost::json::serialize(data);
  snapshot.source = "upload";
  const auto upload = public_data(events::encode(events::ProjectImported{"prj_1", snapshot, kAt}));
  EXPECT_FALSE(upload.contains("ref"));
  EXPECT_FALSE(upload.contains("commit"));
}

TEST(PublicEvent, TestCompletedHoldsTheContractsFieldsWithIntegersAsIntegers) {
  std::string type, project_id;
  const auto data = public_data(events::encode(events::RunCompleted{
                                    "run_1", "tst_1", "prj_1", "success", results(), 1534, kAt}),
                                &type, &project_id);
  EXPECT_EQ(type, "test.completed");
  EXPECT_EQ(project_id, "prj_1");
  EXPECT_EQ(boost::json::value(data),
            boost::json::parse(R"({"runId":"run_1","testId":"tst_1","projectId":"prj_1",)"
                               R"("status":"success","duration":1534,"results":{"total":12,)"
                               R"("passed":11,"failed":1,"coverage":{"statements":80,)"
                               R"("branches":72.5,"functions":100,"lines":81.25}},)"
                               R"("completed":"2026-11-28T10:00:00.123Z"})"))
      << boost::json::serialize(data);
  EXPECT_TRUE(data.at("results").at("coverage").at("functions").is_int64());
  expect_no_internal_field(data);
}

TEST(PublicEvent, RunStartedFailedAndCoverageUpdated) {
  events::TestRun run;
  run.id = "run_1";
  run.account = "acme";
  run.test_id = "tst_1";
  run.project_id = "prj_1";
  run.environment = {"20", {{"left-pad", "^1.3.0"}}};
  run.created = kAt;
  std::string type;
  auto started = public_data(events::encode(events::RunStarted{run}), &type);
  EXPECT_EQ(type, "test.started");
  EXPECT_EQ(started.at("status"), "running");
  EXPECT_EQ(started.at("environment").at("dependencies").at("left-pad"), "^1.3.0");
  expect_no_internal_field(started);

  auto failed =
      public_data(events::encode(events::RunFailed{"run_1",
                                                   "tst_1",
                                                   "prj_1",
                                                   "error",
                                                   "error",
                                                   "too slow",
                                                   {},
                                                   events::RunError{"wall_time_limit", "too slow"},
                                                   std::nullopt,
                                                   30000,
                                                   kAt}),
                  &type);
  EXPECT_EQ(type, "test.failed");
  EXPECT_TRUE(failed.at("results").is_null());
  EXPECT_EQ(failed.at("error").at("code"), "wall_time_limit");
  EXPECT_EQ(failed.at("completed"), "2026-11-28T10:00:00.123Z");

  auto coverage =
      public_data(events::encode(events::CoverageUpdated{"prj_1", "tst_1", "run_1", std::nullopt,
                                                         results().coverage, kAt}),
                  &type);
  EXPECT_EQ(type, "test.coverage.updated");
  EXPECT_TRUE(coverage.at("previous").is_null());
  EXPECT_TRUE(coverage.at("current").at("statements").is_int64());
}

TEST(PublicEvent, TheEnvelopeIsVersionedWithAnIsoTimestamp) {
  auto text = events::public_envelope(recorded(events::encode(events::ProjectDeleted{"prj_1", 1})));
  ASSERT_TRUE(text.ok());
  const auto envelope = boost::json::parse(*text).as_object();
  EXPECT_EQ(envelope.at("id"), "evt_1");
  EXPECT_EQ(envelope.at("type"), "project.deleted");
  EXPECT_EQ(envelope.at("version"), events::kPublicEventVersion);
  EXPECT_EQ(envelope.at("created"), "2026-11-28T10:00:00.123Z");
  EXPECT_EQ(envelope.size(), 5u);
  expect_no_internal_field(envelope);
}

TEST(PublicEvent, InternalEventsHaveNoPublicForm) {
  events::ApiKeyEvent issued = events::ApiKeyIssued{"key_1", "acme", "ci", {"admin"}, "abc", 9};
  auto event = events::to_public_event(recorded(events::encode(issued)));
  ASSERT_TRUE(event.ok());
  EXPECT_FALSE(event->has_value());
  EXPECT_FALSE(events::public_envelope(recorded(events::encode(issued))).ok());
}

TEST(PublicEvent, CorruptStoredDataIsAnErrorNotAGuess) {
  auto record = recorded({std::string(events::kTestRunCompletedV1), R"({"runId":"run_1"})"});
  auto event = events::to_public_event(record);
  ASSERT_FALSE(event.ok());
  EXPECT_EQ(event.error().code, base::ErrorCode::kInternal);
}

}  // namespace
}  // namespace vouch
