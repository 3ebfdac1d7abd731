#pragma once

#include <cstdint>
#include <string>

namespace vouch::sandbox {

// The JavaScript heap that Node.js is given under a memory limit: three
// quarters of it, in NODE_OPTIONS, for every process in the sandbox.
//
// The memory limit is RLIMIT_DATA (command.cpp), which V8 does not see: left
// to itself, V8 sizes its heap by the machine's memory (4 GB on a 24 GB
// machine) and lets garbage pile up long before a full collection. A run of a
// large package (2,195 sources to instrument for coverage) then reached the
// 1 GiB limit with about 300 MB alive and was killed (SIGSEGV, or V8's
// fatal out-of-memory) in one run of five. With the heap bounded below the
// limit, V8 collects before it: the same run peaked at 740 MB. The quarter
// left is for what is not heap: code, malloc, thread stacks, buffers (about
// 130 MB of a run). Derived from the one memory limit, wherever it applies:
// the sandbox (sandbox_env), and the verification runs that the generator
// holds to the run path's limits (GenerationJob::run_limits).
constexpr std::uint64_t node_heap_mb(std::uint64_t memory_mb) { return memory_mb * 3 / 4; }

inline std::string node_options(std::uint64_t memory_mb) {
  return "--max-old-space-size=" + std::to_string(node_heap_mb(memory_mb));
}

}  // namespace vouch::sandbox
