#pragma once

#include <atomic>
#include <cstdint>

namespace vouch::actors {

// Gauges and counters of the generator and executor pools, written by their
// actors and read by /metrics from any thread.
struct RunnerStats {
  std::atomic<std::int64_t> generations_running{0};
  std::atomic<std::int64_t> generations_waiting{0};
  std::atomic<std::uint64_t> generations_refused{0};  // no generator free in time (503)
  std::atomic<std::int64_t> runs_executing{0};        // runs holding a runner
  std::atomic<std::int64_t> runs_waiting{0};          // runs waiting for a runner
  std::atomic<std::int64_t> runners_ready{0};         // warm runners waiting for a run
  std::atomic<std::int64_t> runners_starting{0};
  std::atomic<std::uint64_t> runner_start_failures{0};
};

}  // namespace vouch::actors
