#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>

#include "base/result.hpp"

namespace vouch::runner_cache {

// V8's code cache of the runner's own modules (Jest, Babel), one per Node.js
// major, lent to the runners started with runs waiting.
//
// Such a runner lives for one job and would compile most of Jest for it; with
// the cache it compiles from the code a primed runner compiled during its
// warm-up (runner/src/run/module-code-cache.js). The cache is taken from the
// first primed runner of a major that says it is ready, before any job, when
// only run.js and its warm-up have run in it: V8 trusts a code cache, so a
// file a job could have written is never taken. Read as untrusted output all
// the same (no link followed, bounded). The first one kept for a major
// stays; nothing is kept across restarts. Thread-safe.
class RunnerCodeCache {
 public:
  static constexpr std::uint64_t kMaxBytes = 64ull << 20;

  // Empties `root` (a leftover of a previous process) and creates it.
  explicit RunnerCodeCache(std::filesystem::path root);

  // Whether a cache is held for `major` ("20").
  bool holds(const std::string& major) const;

  // Takes, for `major`, the cache a runner wrote at `file` in its work folder
  // before any job ran, unless one is held already. kInvalid for a major
  // that is not a number, a file that is no regular file or is too large.
  [[nodiscard]] base::Status keep(const std::string& major, const std::filesystem::path& file);

  // Copies the cache of `major` to `file`, in a work folder no untrusted code
  // has run in yet (vouch-sandbox gives the folder's files to the runner's
  // uid). False when none is held.
  [[nodiscard]] base::Result<bool> lend(const std::string& major,
                                        const std::filesystem::path& file);

  // What GET /metrics reports of it.
  struct Stats {
    std::uint64_t bytes = 0;  // held for all majors
    std::uint64_t lent = 0;   // copies made for runners since start
  };
  Stats stats() const;

 private:
  std::filesystem::path root_;
  mutable std::mutex mutex_;
  std::map<std::string, std::uint64_t> held_;  // major → bytes
  std::uint64_t lent_ = 0;
};

}  // namespace vouch::runner_cache
