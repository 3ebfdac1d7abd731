#include "events/webhook_delivery.hpp"

#include <gtest/gtest.h>

#include <utility>

namespace vouch::events {
namespace {

constexpr base::Millis kSecond = 1000;
constexpr base::Millis kHour = 3600 * kSecond;

TEST(RetrySchedule, FollowsDesignWithoutJitter) {
  const RetryPolicy policy{1.0, 0.0};
  const std::vector<base::Millis> expected{5 * kSecond, 300 * kSecond, 1800 * kSecond, 2 * kHour,
                                           5 * kHour,   10 * kHour,    10 * kHour};
  for (std::uint32_t attempt = 1; attempt < RetryPolicy::kMaxAttempts; ++attempt) {
    EXPECT_EQ(policy.delay_after(attempt, 0.5), expected[attempt - 1]) << attempt;
  }
  EXPECT_FALSE(policy.delay_after(8, 0.5).has_value());  // the eighth attempt was the last
  EXPECT_FALSE(policy.delay_after(0, 0.5).has_value());
}

TEST(RetrySchedule, ScaleMultipliesEveryDelayAndTheDisablingPeriod) {
  const RetryPolicy policy{0.001, 0.0};
  EXPECT_EQ(policy.delay_after(1, 0.3), 5);
  EXPECT_EQ(policy.delay_after(2, 0.3), 300);
  EXPECT_EQ(policy.delay_after(7, 0.3), 36'000);
  EXPECT_EQ(policy.disable_after(), 432'000);  // 5 days × 0.001
  EXPECT_EQ(RetryPolicy{}.disable_after(), 5 * 24 * kHour);
}

TEST(RetrySchedule, JitterStaysWithinItsBand) {
  const RetryPolicy policy{1.0, 0.2};
  EXPECT_EQ(policy.delay_after(2, 0.0), 240 * kSecond);
  EXPECT_EQ(policy.delay_after(2, 1.0), 360 * kSecond);
  EXPECT_EQ(policy.delay_after(2, 0.5), 300 * kSecond);
}

TEST(RetrySchedule, RetryAfterIsAFloorNotScaledAndCapped) {
  const RetryPolicy policy{0.001, 0.0};
  EXPECT_EQ(policy.delay_after(1, 0.5, 2 * kSecond), 2 * kSecond);
  EXPECT_EQ(policy.delay_after(7, 0.5, 1), 36'000);  // shorter than the schedule: the schedule
  EXPECT_EQ(policy.delay_after(1, 0.5, 100 * kHour), 10 * kHour);
}

TEST(RetryAfter, ParsesSecondsAndHttpDates) {
  const base::Millis now = 784111777000;  // Sun, 06 Nov 1994 08:49:37 GMT
  EXPECT_EQ(parse_retry_after("120", now), 120 * kSecond);
  EXPECT_EQ(parse_retry_after(" 0 ", now), 0);
  EXPECT_EQ(parse_retry_after("Sun, 06 Nov 1994 08:50:37 GMT", now), 60 * kSecond);
  EXPECT_EQ(parse_retry_after("Sun, 06 Nov 1994 08:40:00 GMT", now), 0);  // in the past
  EXPECT_FALSE(parse_retry_after("soon", now).has_value());
  EXPECT_FALSE(parse_retry_after("-5", now).has_value());
  EXPECT_FALSE(parse_retry_after("", now).has_value());
}

TEST(AttemptVerdict, ClassifiesAnswers) {
  using enum AttemptVerdict;
  const std::pair<unsigned, AttemptVerdict> answers[] = {
      {200, kDelivered}, {204, kDelivered}, {301, kRetry}, {302, kRetry},
      {400, kRetry},     {410, kGone},      {408, kRetry}, {429, kRetry},
      {500, kRetry},     {503, kRetry},     {0, kRetry}};
  for (const auto& [status, verdict] : answers) {
    EXPECT_EQ(verdict_of(status, false), verdict) << status;
  }
  EXPECT_EQ(verdict_of(0, true), kRefused);
}

TEST(DeliveryStream, OnePerWebhook) { EXPECT_EQ(deliveries_stream("whk_1"), "deliveries-whk_1"); }

}  // namespace
}  // namespace vouch::events
