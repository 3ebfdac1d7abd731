#pragma once

#include <cstddef>

#include "base/result.hpp"
#include "store/database.hpp"
#include "store/read_memo.hpp"

namespace vouch::app {

// How vouchd divides one memory budget (--memory-mb) among what grows with
// the data and the load:
//   RocksDB      a quarter: its block cache, with the memtables (an eighth)
//                charged to it
//   read memos   about a twentieth as the memos count it (stored sizes;
//                decoded, about twice that)
//   project actors  a sixteenth, at kProjectActorBytes each
// The rest is for what does not grow with the data: the program, requests in
// flight, the allocator's free pages.
struct MemoryBudget {
  std::size_t total_bytes = 0;
  store::Database::Memory rocksdb;
  store::ReadMemoBudget read_memos;
  std::size_t project_actors = 0;  // alive at once, at most
};

// What one live project actor holds: the actor, its folded project and the
// registry's entry for it (measured with bench/soak_bench.sh MODE=million).
inline constexpr std::size_t kProjectActorBytes = 2048;
inline constexpr std::size_t kDefaultMemoryMb = 512;
inline constexpr std::size_t kMinimumMemoryMb = 64;

// The shares of `megabytes`. REQUIRES: megabytes >= kMinimumMemoryMb.
MemoryBudget divide_memory(std::size_t megabytes);
// The same, kInvalid below kMinimumMemoryMb.
[[nodiscard]] base::Result<MemoryBudget> memory_budget(std::size_t megabytes);

}  // namespace vouch::app
