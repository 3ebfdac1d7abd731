#include "http/rate_limiter.hpp"

#include <algorithm>
#include <functional>

namespace vouch::http {

RateDecision RateLimiter::check(const std::string& account, events::Plan plan,
                                std::int64_t now_seconds) {
  const auto limits = events::limits_of(plan);
  const std::int64_t minute = now_seconds / 60;
  const std::int64_t day = now_seconds / 86'400;
  auto& shard = shards_[std::hash<std::string>{}(account) % shards_.size()];

  std::lock_guard lock(shard.mutex);
  auto& window = shard.windows[account];
  if (window.minute != minute) {
    window.minute = minute;
    window.in_minute = 0;
  }
  if (window.day != day) {
    window.day = day;
    window.in_day = 0;
  }

  RateDecision decision;
  decision.limit = limits.per_minute;
  const std::int64_t minute_reset = (minute + 1) * 60;
  const std::int64_t day_reset = (day + 1) * 86'400;
  const bool day_capped = limits.per_day != 0;

  if (window.in_minute >= limits.per_minute) {
    decision.allowed = false;
    decision.reset = minute_reset;
  } else if (day_capped && window.in_day >= limits.per_day) {
    decision.allowed = false;
    decision.reset = day_reset;
  } else {
    ++window.in_minute;
    ++window.in_day;
  }

  const std::uint32_t minute_left = limits.per_minute - window.in_minute;
  const std::uint32_t day_left = day_capped ? limits.per_day - window.in_day : minute_left;
  decision.remaining = std::min(minute_left, day_left);
  if (decision.allowed) {
    decision.reset = (day_capped && day_left < minute_left) ? day_reset : minute_reset;
  } else {
    decision.retry_after = std::max<std::int64_t>(1, decision.reset - now_seconds);
  }
  return decision;
}

}  // namespace vouch::http
