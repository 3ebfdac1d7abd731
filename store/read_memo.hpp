#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "base/result.hpp"

namespace vouch::store {

// What the read models may keep in memory, in bytes as their ReadMemos count
// them (stored sizes; the decoded answers weigh about twice that).
struct ReadMemoBudget {
  // Per read model of records (projects, tests, runs, webhooks): about
  // 13,000 projects, or a few dozen generated tests with their sources, in 4 MiB.
  std::size_t records = 4 << 20;
  // Key grants by key hash: a grant weighs a few hundred bytes.
  std::size_t grants = 16 << 20;
};

// Answers of a read model kept in memory between the projector's commits:
// filled by lookups (any thread), dropped by the read model's committed()
// (the projector's thread) once a commit changed what they were read from.
// The one way a read model keeps answers in memory.
//
// A lookup that read the database before a drop does not keep what it read:
// each drop starts a new generation, and an answer read in an older one is
// returned but not kept. An empty optional (nothing there) is not kept
// either: lookups of what does not exist (guessed API keys, ids) must not
// crowd out the real answers. The answers kept weigh at most `budget` bytes,
// as their reader counts them (a record's stored size); when the next one
// does not fit, all are dropped (the hot ones come back with their next
// lookups), and one heavier than the whole budget is never kept.
template <class V>
class ReadMemo {
 public:
  explicit ReadMemo(std::size_t budget) : budget_(budget) {}

  // The answer kept for `key`, else read(), kept when it succeeded; weight()
  // says what the answer read weighs, in bytes.
  template <class Read, class Weight>
  base::Result<V> find(const std::string& key, Read&& read, Weight&& weight) const {
    std::uint64_t generation = 0;
    {
      const std::lock_guard lock(mutex_);
      if (const auto found = values_.find(key); found != values_.end()) {
        return found->second.value;
      }
      generation = generation_;
    }
    base::Result<V> answer = read();
    if (answer && worth_keeping(*answer)) {
      const std::size_t bytes = weight(*answer) + key.size();
      const std::lock_guard lock(mutex_);
      if (generation == generation_ && bytes <= budget_) {
        if (used_ + bytes > budget_) {
          values_.clear();
          used_ = 0;
        }
        if (values_.insert_or_assign(key, Kept{*answer, bytes}).second) used_ += bytes;
      }
    }
    return answer;
  }

  // Bytes of the answers kept, as counted against the budget. Thread-safe.
  std::size_t bytes() const {
    const std::lock_guard lock(mutex_);
    return used_;
  }

  // Forgets every answer, and every lookup under way.
  void drop() {
    const std::lock_guard lock(mutex_);
    values_.clear();
    used_ = 0;
    ++generation_;
  }

 private:
  struct Kept {
    V value;
    std::size_t bytes;
  };

  template <class U>
  static bool worth_keeping(const std::optional<U>& answer) {
    return answer.has_value();
  }
  template <class U>
  static bool worth_keeping(const U&) {
    return true;
  }

  const std::size_t budget_;
  mutable std::mutex mutex_;
  mutable std::unordered_map<std::string, Kept> values_;  // guarded by mutex_
  mutable std::size_t used_ = 0;                          // guarded by mutex_
  mutable std::uint64_t generation_ = 0;                  // guarded by mutex_
};

}  // namespace vouch::store
