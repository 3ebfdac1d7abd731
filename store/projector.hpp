#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "events/result.hpp"
#include "store/database.hpp"
#include "store/event_log.hpp"
#include "store/projection.hpp"

namespace vouch::store {

// Keeps read models current: folds committed events into every projection and
// writes the read-model changes and each projection's checkpoint in one
// batch. On start, catch_up() replays what the checkpoints have not seen, so
// a crash between a commit and its projection loses nothing.
class Projector : public CommitListener {
 public:
  // REQUIRES: `database` and the projections outlive the projector.
  Projector(Database& database, std::vector<Projection*> projections);

  // Folds every event after the stored checkpoints. Call before serving.
  [[nodiscard]] events::Status catch_up(const EventLog& log);

  // Writer thread. A failure here leaves the checkpoint behind; the events
  // are durable, and the next start replays them. healthy() turns false.
  void on_committed(const std::vector<events::RecordedEvent>& committed) override;

  bool healthy() const { return healthy_.load(); }
  std::uint64_t checkpoint() const { return checkpoint_.load(); }

 private:
  [[nodiscard]] events::Status apply(const std::vector<events::RecordedEvent>& batch);

  Database& database_;
  std::vector<Projection*> projections_;
  std::vector<std::uint64_t> checkpoints_;  // one per projection
  std::atomic<std::uint64_t> checkpoint_{0};
  std::atomic<bool> healthy_{true};
};

}  // namespace vouch::store
