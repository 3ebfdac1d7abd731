#include "events/webhook_delivery.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <ctime>

namespace vouch::events {
namespace {

constexpr base::Millis kSecond = 1000;
constexpr base::Millis kMinute = 60 * kSecond;
constexpr base::Millis kHour = 60 * kMinute;
// Index i: the wait after attempt i + 1 failed.
constexpr std::array<base::Millis, RetryPolicy::kMaxAttempts - 1> kSchedule{
    5 * kSecond, 5 * kMinute, 30 * kMinute, 2 * kHour, 5 * kHour, 10 * kHour, 10 * kHour};
constexpr base::Millis kMaxRetryAfter = 10 * kHour;
constexpr base::Millis kFailingDays = 5 * 24 * kHour;

}  // namespace

AttemptVerdict verdict_of(unsigned status, bool refused) {
  if (refused) return AttemptVerdict::kRefused;
  if (status >= 200 && status < 300) return AttemptVerdict::kDelivered;
  if (status == 410) return AttemptVerdict::kGone;
  // As Stripe and Svix do: any other answer, a redirect or a 4xx included,
  // is retried on the schedule (a receiver's bug or misconfiguration fixed
  // within the schedule loses nothing). Redirects are never followed.
  return AttemptVerdict::kRetry;
}

base::Millis scheduled_delay(std::uint32_t attempt) { return kSchedule.at(attempt - 1); }

base::Millis RetryPolicy::disable_after() const {
  return static_cast<base::Millis>(std::llround(static_cast<double>(kFailingDays) * scale));
}

std::optional<base::Millis> RetryPolicy::delay_after(
    std::uint32_t attempt, double unit_random, std::optional<base::Millis> retry_after) const {
  if (attempt == 0 || attempt >= kMaxAttempts) return std::nullopt;
  const double factor = 1.0 - jitter + 2.0 * jitter * std::clamp(unit_random, 0.0, 1.0);
  base::Millis delay = static_cast<base::Millis>(
      std::llround(static_cast<double>(scheduled_delay(attempt)) * scale * factor));
  if (retry_after) delay = std::max(delay, std::min(*retry_after, kMaxRetryAfter));
  return std::max<base::Millis>(delay, 0);
}

std::optional<base::Millis> parse_retry_after(std::string_view value, base::Millis now) {
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
  if (value.empty()) return std::nullopt;
  std::uint64_t seconds = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
  if (ec == std::errc() && end == value.data() + value.size()) {
    return static_cast<base::Millis>(std::min<std::uint64_t>(seconds, 1'000'000'000)) * kSecond;
  }
  // IMF-fixdate, e.g. "Sun, 06 Nov 1994 08:49:37 GMT".
  std::tm tm{};
  const std::string text(value);
  const char* parsed = strptime(text.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  if (!parsed || *parsed != '\0') return std::nullopt;
  const base::Millis at = static_cast<base::Millis>(timegm(&tm)) * kSecond;
  return std::max<base::Millis>(at - now, 0);
}

}  // namespace vouch::events
