#pragma once

#include <atomic>
#include <cstddef>

namespace vouch::actors {

// How many project actors are alive against their cap, written by the
// project registry and read by /metrics from any thread.
struct ProjectActorStats {
  explicit ProjectActorStats(std::size_t max_live) : max_live(max_live) {}

  const std::size_t max_live;        // alive at once, at most; 0: no cap
  std::atomic<std::size_t> live{0};  // spawned and not told to stop
};

}  // namespace vouch::actors
