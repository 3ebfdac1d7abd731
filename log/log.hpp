#pragma once

#include <boost/json/object.hpp>
#include <cstdint>
#include <string_view>

// The service's log: one JSON object per line on stderr, written in batches
// by one background thread (log/batching_sink.hpp), so that lines from
// different threads never interleave, a request never waits for the
// terminal, and many lines are one write.
//
//   {"time":"2026-11-24T19:22:55.123Z","level":"warn","component":"http",
//    "msg":"accepting a connection failed: …","requestId":"req_…"}
//
// The bottom layer: everything may log, it depends on nothing of Vouch.
namespace vouch::log {

enum class Level { kDebug, kInfo, kWarn, kError };

// Extra fields of a line, after time, level, component and msg.
using Fields = boost::json::object;

void write(Level level, std::string_view component, std::string_view message, Fields fields = {});

inline void info(std::string_view component, std::string_view message, Fields fields = {}) {
  write(Level::kInfo, component, message, std::move(fields));
}
inline void warn(std::string_view component, std::string_view message, Fields fields = {}) {
  write(Level::kWarn, component, message, std::move(fields));
}
inline void error(std::string_view component, std::string_view message, Fields fields = {}) {
  write(Level::kError, component, message, std::move(fields));
}

// Returns once every line logged so far is written; call before the process
// exits.
void flush();

// Lines dropped whole because stderr refused them (e.g. a full disk).
std::uint64_t dropped_lines();

}  // namespace vouch::log
