#include "events/idempotency.hpp"

#include <gtest/gtest.h>

#include "base/ids.hpp"
#include "store/event_log.hpp"
#include "store/read_model_format.hpp"
#include "store/read_models.hpp"
#include "temp_folder.hpp"

namespace vouch {
namespace {

events::IdempotentResponse sample_response() {
  return {"order-1",
          events::request_fingerprint("POST", "/v1/projects", R"({"name":"a"})"),
          201,
          "application/json",
          {{"Location", "/v1/projects/prj_1"}},
          R"({"id":"prj_1"})",
          1'700'000'000'000};
}

TEST(IdempotencyKey, VisibleAsciiUpTo255CharactersIsUsable) {
  EXPECT_TRUE(events::check_idempotency_key("a").ok());
  EXPECT_TRUE(events::check_idempotency_key("9f1c2e7a-4b6d-4c1e-8a3f-0d2b5c6e7f80").ok());
  EXPECT_TRUE(events::check_idempotency_key(std::string(255, 'k')).ok());
  for (const std::string& bad : {std::string(), std::string(256, 'k'), std::string("two words"),
                                 std::string("tab\there"), std::string("caf\xc3\xa9")}) {
    auto status = events::check_idempotency_key(bad);
    ASSERT_FALSE(status.ok()) << bad;
    EXPECT_EQ(status.error().code, base::ErrorCode::kInvalid);
    ASSERT_EQ(status.error().fields.size(), 1u);
    EXPECT_EQ(status.error().fields[0].field, "Idempotency-Key");
  }
}

TEST(IdempotencyKey, StreamsAreSeparatePerAccountAndKey) {
  const auto a = events::idempotency_stream("acme", "k1");
  EXPECT_EQ(a.rfind("idempotency-", 0), 0u);
  EXPECT_EQ(a, events::idempotency_stream("acme", "k1"));
  EXPECT_NE(a, events::idempotency_stream("acme2", "k1"));
  EXPECT_NE(a, events::idempotency_stream("acme", "k2"));
  // The separator keeps "ab"+"c" apart from "a"+"bc".
  EXPECT_NE(events::idempotency_stream("ab", "c"), events::idempotency_stream("a", "bc"));
}

TEST(IdempotencyKey, FingerprintsDifferWhenMethodTargetOrBodyDoes) {
  const auto base = events::request_fingerprint("POST", "/v1/projects", "{}");
  EXPECT_EQ(base, events::request_fingerprint("POST", "/v1/projects", "{}"));
  EXPECT_NE(base, events::request_fingerprint("PUT", "/v1/projects", "{}"));
  EXPECT_NE(base, events::request_fingerprint("POST", "/v1/webhooks", "{}"));
  EXPECT_NE(base, events::request_fingerprint("POST", "/v1/projects", "{ }"));
}

TEST(IdempotencyKey, AResponseAnswersRetriesFor24Hours) {
  EXPECT_TRUE(events::answers_retries(1000, 1000));
  EXPECT_TRUE(events::answers_retries(1000, 1000 + events::kIdempotencyWindowMs - 1));
  EXPECT_FALSE(events::answers_retries(1000, 1000 + events::kIdempotencyWindowMs));
}

TEST(IdempotencyCodec, RoundTripsAndRefusesCorruptData) {
  const auto encoded = events::encode(events::IdempotentResponseRecorded{sample_response()});
  EXPECT_EQ(encoded.type, events::kIdempotentResponseRecordedV1);
  auto decoded = events::decode_idempotent_response(encoded.data);
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  const auto& response = decoded->response;
  EXPECT_EQ(response.key, "order-1");
  EXPECT_EQ(response.status, 201u);
  EXPECT_EQ(response.headers, sample_response().headers);
  EXPECT_EQ(response.body, R"({"id":"prj_1"})");
  EXPECT_EQ(response.at, 1'700'000'000'000);

  for (const std::string& corrupt :
       {std::string("[]"), std::string(R"({"key":"k"})"),
        std::string(R"({"key":"k","fingerprint":"f","status":42,"contentType":"","headers":[],)"
                    R"("body":"","at":1})"),
        std::string(R"({"key":"k","fingerprint":"f","status":200,"contentType":"",)"
                    R"("headers":[["only-a-name"]],"body":"","at":1})")}) {
    auto refused = events::decode_idempotent_response(corrupt);
    ASSERT_FALSE(refused.ok()) << corrupt;
    EXPECT_EQ(refused.error().code, base::ErrorCode::kInternal);
  }
}

TEST(IdempotencyView, FindsTheLatestResponseOfAStream) {
  testing::TempFolder folder;
  auto database = std::move(store::Database::open(folder.path() / "data").value());
  ASSERT_TRUE(store::prepare_read_model_format(*database).ok());
  store::ReadModels models(*database);
  auto log_owner = std::move(store::EventLog::open(*database).value());
  auto& log = *log_owner;
  ASSERT_TRUE(models.projector().catch_up(log).ok());
  log.add_listener(&models.projector());

  const auto stream = events::idempotency_stream("acme", "order-1");
  auto none = models.idempotency().find(stream);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());

  for (const char* body : {R"({"id":"prj_1"})", R"({"id":"prj_2"})"}) {
    auto response = sample_response();
    response.body = body;
    auto encoded = events::encode(events::IdempotentResponseRecorded{response});
    ASSERT_TRUE(log.append({stream,
                            store::kAnyVersion,
                            {{base::new_id("evt_"), encoded.type, "acme", 1, encoded.data}}})
                    .ok());
  }
  auto found = models.idempotency().find(stream);
  ASSERT_TRUE(found.ok());
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->body, R"({"id":"prj_2"})");
  auto other = models.idempotency().find(events::idempotency_stream("other", "order-1"));
  ASSERT_TRUE(other.ok());
  EXPECT_FALSE(other->has_value());
}

}  // namespace
}  // namespace vouch
