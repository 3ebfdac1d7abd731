#include "process/sandbox/outcome.hpp"

#include <string.h>

#include <array>
#include <csignal>
#include <string_view>

namespace vouch::sandbox {
namespace {

// What node (and so V8) prints before aborting for lack of memory, when an
// allocation meets RLIMIT_DATA (or the heap meets --max-old-space-size).
constexpr std::array<std::string_view, 4> kOutOfMemory{
    "JavaScript heap out of memory", "Fatal process out of memory",
    "Allocation failed - process out of memory", "std::bad_alloc"};

bool out_of_memory(const std::string& stderr_tail) {
  for (auto sign : kOutOfMemory) {
    if (stderr_tail.find(sign) != std::string::npos) return true;
  }
  return false;
}

Outcome limit(const char* code, const std::string& detail, int exit_code) {
  return {R"({"status":"limit","code":)" + json_quoted(code) + R"(,"detail":)" +
              json_quoted(detail) + "}",
          exit_code};
}

}  // namespace

std::string json_quoted(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += "\\u00";
          out += kHex[(c >> 4) & 0xf];
          out += kHex[c & 0xf];
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

std::string signal_name(int signal) {
  if (const char* abbreviation = ::sigabbrev_np(signal)) return std::string("SIG") + abbreviation;
  return "SIG" + std::to_string(signal);
}

Outcome describe_outcome(const Ended& ended, const Limits& limits) {
  if (ended.wall_expired) {
    return limit("wall_time_limit",
                 "wall time limit exceeded (" + std::to_string(limits.wall_ms) + " ms)",
                 kWallTimeLimitExit);
  }
  std::optional<int> signal = ended.signal;
  if (!signal && ended.via_bwrap && ended.code && *ended.code > 128 && *ended.code < 128 + 65) {
    signal = *ended.code - 128;
  }
  if (signal == SIGXCPU) {
    return limit("cpu_time_limit",
                 "cpu time limit exceeded (" + std::to_string(limits.cpu_seconds) + " s)",
                 kCpuTimeLimitExit);
  }
  if (signal == SIGXFSZ) {
    return limit("file_size_limit",
                 "file size limit exceeded (" + std::to_string(limits.max_file_mb) + " MB)",
                 kFileSizeLimitExit);
  }
  if (signal == SIGABRT && out_of_memory(ended.stderr_tail)) {
    return limit("memory_limit",
                 "memory limit exceeded (" + std::to_string(limits.memory_mb) + " MB)",
                 kMemoryLimitExit);
  }
  if (signal) {
    return {R"({"status":"signaled","signal":)" + json_quoted(signal_name(*signal)) + "}",
            128 + *signal};
  }
  const int code = ended.code.value_or(0);
  return {R"({"status":"exited","code":)" + std::to_string(code) + "}", code};
}

Outcome sandbox_failed(const std::string& detail) {
  return {R"({"status":"error","code":"sandbox_failed","detail":)" + json_quoted(detail) + "}",
          kSandboxFailedExit};
}

}  // namespace vouch::sandbox
