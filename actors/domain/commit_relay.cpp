#include "actors/domain/commit_relay.hpp"

namespace vouch::actors {

void CommitRelay::connect(std::function<void(std::uint64_t)> target) {
  std::lock_guard lock(mutex_);
  target_ = std::move(target);
}

void CommitRelay::disconnect() {
  std::lock_guard lock(mutex_);
  target_ = nullptr;
}

void CommitRelay::on_committed(const std::vector<events::RecordedEvent>& committed) {
  if (committed.empty()) return;
  std::lock_guard lock(mutex_);
  if (target_) target_(committed.back().position);
}

}  // namespace vouch::actors
