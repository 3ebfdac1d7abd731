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

// UTC with milliseconds, as the API writes times.
std::string timestamp() {
  const auto now =
      std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
  const auto seconds = std::chrono::time_point_cast<std::chrono::seconds>(now);
  const auto millis = (now - seconds).count();
  return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:03}Z",
                     fmt::gmtime(std::chrono::system_clock::to_time_t(seconds)), millis);
}

// Made on first use, never replaced: lines from every thread go to the one
// batching sink, which writes them from its own thread. Never destroyed:
// threads may log until the process ends.
spdlog::logger& logger() {
  static spdlog::logger* const made = [] {
    auto* logger = new spdlog::logger("vouch", std::make_shared<BatchingSink>(STDERR_FILENO));
    logger->set_pattern("%v");
    logger->set_level(spdlog::level::debug);
    return logger;
  }();
  return *made;
}

}  // namespace

void write(Level level, std::string_view component, std::string_view message, Fields fields) {
  boost::json::object line;
  line.reserve(4 + fields.size());
  line["time"] = timestamp();
  line["level"] = kLevelNames[static_cast<int>(level)];
  line["component"] = component;
  line["msg"] = message;
  for (auto& field : fields) line[field.key()] = std::move(field.value());
  logger().log(spdlog_level(level), boost::json::serialize(line));
}

void flush() { logger().flush(); }

}  // namespace vouch::log
