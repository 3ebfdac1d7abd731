#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"

namespace vouch::sandbox {

// Resource limits of every process in a sandbox.
struct Limits {
  std::uint64_t cpu_seconds = 30;
  std::uint64_t memory_mb = 1024;
  std::uint64_t max_procs = 128;
  std::uint64_t max_file_mb = 64;
  std::uint64_t wall_ms = 60'000;  // counted from the first byte (or the end) of stdin
};

enum class Isolation { kAuto, kBubblewrap, kUnshare, kNone };

std::string_view name_of(Isolation isolation);

// The command line of vouch-sandbox: `--probe`, or WORKDIR, options, `--` and
// the command (runner/README.md, "## sandbox").
struct Options {
  bool probe = false;
  std::filesystem::path workdir;
  std::vector<std::string> command;
  Limits limits;
  std::vector<std::filesystem::path> hide;       // covered by empty read-only folders
  std::vector<std::filesystem::path> read_only;  // visible read-only, even inside a hidden one
  std::uint64_t uid = 0;                         // the sandbox's uid when started as root
  Isolation isolation = Isolation::kAuto;
};

extern const char* const kUsage;

// A range that distributions, systemd and container tools leave unused; each
// concurrent launcher has its own pid, so each sandbox gets its own uid (the
// process limit counts per uid).
inline constexpr std::uint64_t kUidBase = 1'879'048'192;
std::uint64_t default_uid();

// The options, or an error (kInvalid) saying what is wrong with them.
base::Result<Options> parse_options(const std::vector<std::string>& argv);

}  // namespace vouch::sandbox
