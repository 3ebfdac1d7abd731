#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "process/sandbox/options.hpp"

namespace vouch::sandbox {

// How the sandboxed command ended, as the launcher saw it.
struct Ended {
  std::optional<int> code;    // its exit code, when it exited
  std::optional<int> signal;  // the signal that killed it, when one did
  bool via_bwrap = false;     // bwrap passes a death by signal N on as exit code 128 + N
  bool wall_expired = false;  // the launcher killed it at the wall-time limit
  std::string stderr_tail;    // the last characters it wrote on stderr
};

// The launcher's last stderr line ({"sandbox":{...}}) and its exit code.
// Protocol: runner/README.md, "## sandbox".
struct Outcome {
  std::string report;  // the JSON object, without the {"sandbox": ...} around it
  int exit_code = 0;
};

// Exit codes of the launcher for the limits it recognises, and for itself.
inline constexpr int kCpuTimeLimitExit = 201;
inline constexpr int kWallTimeLimitExit = 202;
inline constexpr int kMemoryLimitExit = 203;
inline constexpr int kFileSizeLimitExit = 204;
inline constexpr int kSandboxFailedExit = 210;

Outcome describe_outcome(const Ended& ended, const Limits& limits);
Outcome sandbox_failed(const std::string& detail);

// `text` as a JSON string, quotes included: the report is written by hand so
// that the launcher links no JSON library.
std::string json_quoted(std::string_view text);

// "SIGXCPU" for SIGXCPU; "SIG42" for a number without a name.
std::string signal_name(int signal);

}  // namespace vouch::sandbox
