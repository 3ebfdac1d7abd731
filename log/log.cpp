#include "log/log.hpp"

#include <spdlog/fmt/chrono.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <boost/json/serialize.hpp>
#include <chrono>

#include "log/batching_sink.hpp"

namespace vouch::log {
namespace {

constexpr std::string_view kLevelNames[] = {"debug", "info", "warn", "error"};

spdlog::level::level_enum spdlog_level(Level level) {
  switch (level) {
    case Level::kDebug:
      return spdlog::level::debug;
    case Level::kInfo:
      return spdlog::level::info;
    case Level::kWarn:
      return spdlog::level::warn;
    case Level::kError:
      return spdlog::level::err;
  }
  return spdlog::level::info;
}

// UTC with milliseconds, as the API writes times. The date and time of day
// are formatted once a second per thread: a busy server logs every request.
void append_timestamp(std::string& out) {
  struct Second {
    std::int64_t at = -1;
    char text[20] = {};  // YYYY-MM-DDTHH:MM:SS
  };
  thread_local Second second;
  const auto now =
      std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
  const auto seconds = std::chrono::time_point_cast<std::chrono::seconds>(now);
  if (seconds.time_since_epoch().count() != second.at) {
    fmt::format_to_n(second.text, sizeof second.text, "{:%Y-%m-%dT%H:%M:%S}",
                     fmt::gmtime(std::chrono::system_clock::to_time_t(seconds)));
    second.at = seconds.time_since_epoch().count();
  }
  out.append(second.text, sizeof second.text - 1);
  fmt::format_to(std::back_inserter(out), ".{:03}Z", (now - seconds).count());
}

bool reserved(std::string_view key) {
  return key == "time" || key == "level" || key == "component" || key == "msg";
}

// Made on first use, never replaced: lines from every thread go to the one
// batching sink, which writes them from its own thread. Never destroyed:
// threads may log until the process ends (the logger holds the sink without
// owning it).
BatchingSink& sink() {
  static auto* const made = new BatchingSink(STDERR_FILENO);
  return *made;
}

spdlog::logger& logger() {
  static spdlog::logger* const made = [] {
    auto* logger = new spdlog::logger(
        "vouch", std::shared_ptr<BatchingSink>(std::shared_ptr<BatchingSink>{}, &sink()));
    logger->set_pattern("%v");
    logger->set_level(spdlog::level::debug);
    return logger;
  }();
  return *made;
}

}  // namespace

// Written straight into the line, without an intermediate JSON object: the
// access log writes one line per request. A field named like one of the four
// first is left out (a line has each key once).
void write(Level level, std::string_view component, std::string_view message, Fields fields) {
  std::string line;
  line.reserve(96 + component.size() + message.size() + 48 * fields.size());
  line += R"({"time":")";
  append_timestamp(line);
  line += R"(","level":")";
  line += kLevelNames[static_cast<int>(level)];
  line += R"(","component":)";
  line += boost::json::serialize(boost::json::string_view(component));
  line += R"(,"msg":)";
  line += boost::json::serialize(boost::json::string_view(message));
  for (const auto& field : fields) {
    if (reserved(field.key())) continue;
    line += ',';
    line += boost::json::serialize(field.key());
    line += ':';
    line += boost::json::serialize(field.value());
  }
  line += '}';
  logger().log(spdlog_level(level), line);
}

void flush() { logger().flush(); }

std::uint64_t dropped_lines() { return sink().dropped_lines(); }

}  // namespace vouch::log
