#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "store/database.hpp"
#include "store/event_log.hpp"
#include "store/projection.hpp"

namespace vouch::store {

// Keeps read models current: folds committed events into every projection and
// writes the read-model changes and each projection's checkpoint in one
// batch. On start, catch_up() replays what the checkpoints have not seen, so
// a crash between a commit and its projection loses nothing.
//
// No event is ever skipped: when folding fails, the checkpoint stays before
// the failed event, and the next commit catches up from the log starting
// there (the same event again). After kMaxAttempts failures in a row the
// projector stops folding, so that reads stay consistent at the checkpoint,
// and problem() says why (/readyz reports it); a restart tries again.
class Projector : public CommitListener {
 public:
  // REQUIRES: `database` and the projections outlive the projector.
  Projector(Database& database, std::vector<Projection*> projections);

  static constexpr int kMaxAttempts = 5;

  // Folds every event after the stored checkpoints. Call before serving;
  // `log` is also where on_committed() catches up from after a failure.
  // REQUIRES: `log` outlives the projector.
  [[nodiscard]] base::Status catch_up(const EventLog& log);

  // Writer thread. Folds the batch, or catches up from the log when an
  // earlier batch failed (see above).
  void on_committed(const std::vector<events::RecordedEvent>& committed) override;

  // False while the read models are behind the log.
  bool healthy() const { return healthy_.load(); }
  // Why the read models are behind; empty when healthy.
  std::string problem() const;
  std::uint64_t checkpoint() const { return checkpoint_.load(); }

 private:
  [[nodiscard]] base::Status apply(const std::vector<events::RecordedEvent>& batch);
  void record_failure(const base::Error& error);

  Database& database_;
  std::vector<Projection*> projections_;
  std::vector<std::uint64_t> checkpoints_;  // one per projection
  std::atomic<std::uint64_t> checkpoint_{0};
  const EventLog* log_ = nullptr;
  // Writer thread only: consecutive failed attempts, and whether folding stopped.
  int failures_ = 0;
  bool stopped_ = false;
  std::atomic<bool> healthy_{true};
  mutable std::mutex problem_mutex_;
  std::string problem_;
};

}  // namespace vouch::store
