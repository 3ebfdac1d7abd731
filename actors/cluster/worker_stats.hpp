#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace vouch::actors {

// What the worker hub knows of its workers, written by the hub and read by
// /metrics and /readyz from any thread.
struct WorkerStats {
  struct Slots {
    std::uint32_t generators = 0;
    std::uint32_t executors = 0;
    bool remote = false;
  };

  std::atomic<std::int64_t> remote_workers{0};
  std::atomic<std::int64_t> generator_slots{0};  // local and remote
  std::atomic<std::int64_t> executor_slots{0};
  std::atomic<std::int64_t> generations_in_flight{0};
  std::atomic<std::int64_t> runs_in_flight{0};
  std::atomic<std::int64_t> runs_waiting{0};   // for a slot
  std::atomic<std::uint64_t> jobs_retried{0};  // lost with their worker, sent again
  std::atomic<std::uint64_t> jobs_lost{0};     // lost twice: ended as worker_lost
  std::atomic<std::uint64_t> workers_lost{0};

  void set_slots(const std::string& worker, Slots slots) {
    std::lock_guard lock(mutex_);
    slots_[worker] = slots;
  }
  void remove_slots(const std::string& worker) {
    std::lock_guard lock(mutex_);
    slots_.erase(worker);
  }
  std::map<std::string, Slots> slots() const {
    std::lock_guard lock(mutex_);
    return slots_;
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::string, Slots> slots_;  // by worker name
};

}  // namespace vouch::actors
