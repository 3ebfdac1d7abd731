#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "base/result.hpp"

namespace vouch::runner_cache {

// Jest's transform cache of each project, lent to the project's runs.
//
// A run starts in a fresh folder, so Jest would transform every file again
// (Babel, and istanbul's instrumentation for coverage): about half a second
// of CPU for a small suite, more than its tests take. Inside bubblewrap every
// run's folder is at the same path, so Jest's cache keys, which contain that
// path, are the same for the same files and settings: what one run
// transformed serves the next run of the same project.
//
// What a run leaves in its cache folder is untrusted (the tested code can
// write there), so each project has a cache of its own: a wrong transform
// planted by a run can reach only runs of its own project, whose members can
// change its tests anyway. The runners' warm-up suite has one too, kept only
// when a runner says it is ready, before any job (a scope that is no project
// id, see actors/execution/runner_settings.hpp). Only Jest's transform caches
// (`jest-transform-cache-*`) are kept, never its haste map or timings. Files
// are named by Jest after their key and never rewritten; Jest checks a
// transform's checksum when it reads one. Nothing is kept across restarts.
// Thread-safe.
class TransformCache {
 public:
  // A scope holds a large package's whole cache: a date-fns suite's run leaves
  // 6,327 files, 64 MB (every source instrumented for coverage, and the
  // readings of the untested ones). With 4,000 files and 32 MB, each of its
  // runs was refused, so the next started cold again: 40-50 s of CPU against
  // a run's 30 s limit, and its memory's peak (process/sandbox/node_heap.hpp).
  struct Limits {
    std::size_t max_files = 16'000;                // of one scope
    std::uint64_t max_bytes = 128ull << 20;        // of one scope
    std::uint64_t max_total_bytes = 512ull << 20;  // of all, the least recently used dropped first
  };

  // Empties `root` (a leftover of a previous process) and creates it.
  TransformCache(std::filesystem::path root, Limits limits);
  explicit TransformCache(std::filesystem::path root) : TransformCache(std::move(root), Limits{}) {}

  // Copies the cache of `scope` (a project id) into `jest_cache`, a Jest
  // cache folder no untrusted code has run beside yet, created owned by the
  // owner of its parent (a run's folder, which the sandbox gave to its uid).
  // kInvalid for a scope that is not a plain name.
  [[nodiscard]] base::Status lend(const std::string& scope,
                                  const std::filesystem::path& jest_cache);

  // Adds to the cache of `scope` the transforms a run left in `jest_cache`
  // that it does not hold yet, read as untrusted (read_sandbox_output). When
  // they would take the scope past its limits, its cache is emptied first;
  // then the least recently lent scopes go until all fit. Returns how many
  // files were added.
  [[nodiscard]] base::Result<std::size_t> keep(const std::string& scope,
                                               const std::filesystem::path& jest_cache);

  // What GET /metrics reports of it.
  struct Stats {
    std::uint64_t bytes = 0;       // held for all scopes
    std::size_t scopes = 0;        // scopes holding files
    std::uint64_t files_lent = 0;  // copied into runs' cache folders since start
    std::uint64_t files_kept = 0;  // taken from runs' cache folders since start
    std::uint64_t refused = 0;     // runs whose leftovers were refused (a link, past a limit)
  };
  Stats stats() const;

 private:
  struct Scope {
    std::map<std::string, std::uint64_t> files;  // path in the cache folder → size
    std::uint64_t bytes = 0;
    std::uint64_t last_used = 0;  // of use_clock_
  };

  // REQUIRES: mutex_ held. `scope` may be a key of scopes_.
  void drop(const std::string& scope);

  std::filesystem::path root_;
  Limits limits_;
  mutable std::mutex mutex_;
  std::map<std::string, Scope> scopes_;
  std::uint64_t total_bytes_ = 0;
  std::uint64_t use_clock_ = 0;
  std::uint64_t files_lent_ = 0;
  std::uint64_t files_kept_ = 0;
  std::uint64_t refused_ = 0;
};

}  // namespace vouch::runner_cache
