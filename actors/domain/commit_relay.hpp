#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

#include "store/event_log.hpp"

namespace vouch::actors {

// Tells a subscriber (the webhook dispatcher) that the log grew, with the
// highest committed position. Owned outside the actor system so it can
// outlive it: the log calls it until the log closes, and after disconnect()
// the calls do nothing.
class CommitRelay : public store::CommitListener {
 public:
  // Thread-safe. `target` runs on the log's writer thread and must not block.
  void connect(std::function<void(std::uint64_t)> target);
  void disconnect();

  void on_committed(const std::vector<events::RecordedEvent>& committed) override;

 private:
  std::mutex mutex_;
  std::function<void(std::uint64_t)> target_;
};

}  // namespace vouch::actors
