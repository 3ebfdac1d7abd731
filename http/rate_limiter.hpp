#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

#include "events/plan.hpp"

namespace vouch::http {

struct RateDecision {
  bool allowed = true;
  std::uint32_t limit = 0;       // requests per minute of the plan
  std::uint32_t remaining = 0;   // the lower of what is left this minute and today
  std::int64_t reset = 0;        // unix seconds when `remaining` is replenished
  std::int64_t retry_after = 0;  // seconds; set when !allowed
};

// Fixed windows per account: one per UTC minute and one per UTC day, as the
// contract's plan table sets (§8). Refused requests do not count.
//
// Counts live in memory: a restart forgives the current windows. Called on
// the HTTP threads; accounts are spread over shards, each behind its own
// mutex held for a few instructions.
class RateLimiter {
 public:
  RateDecision check(const std::string& account, events::Plan plan, std::int64_t now_seconds);

 private:
  struct Window {
    std::int64_t minute = -1;
    std::uint32_t in_minute = 0;
    std::int64_t day = -1;
    std::uint32_t in_day = 0;
  };
  struct Shard {
    std::mutex mutex;
    std::unordered_map<std::string, Window> windows;
  };
  std::array<Shard, 16> shards_;
};

}  // namespace vouch::http
