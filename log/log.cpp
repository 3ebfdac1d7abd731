#include "log/log.hpp"

#include <unistd.h>

#include <spdlog/async.h>
#include <spdlog/fmt/chrono.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <boost/json/serialize.hpp>
#include <chrono>
#include <mutex>

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

std::mutex logger_mutex;
std::shared_ptr<spdlog::logger> async_logger;  // guarded by logger_mutex
bool flushed = false;                          // guarded by logger_mutex

// The async logger, made on first use; after flush(), a synchronous one.
std::shared_ptr<spdlog::logger> logger() {
  const std::lock_guard lock(logger_mutex);
  if (!async_logger) {
    if (flushed) {
      async_logger = std::make_shared<spdlog::logger>(
          "vouch-sync", std::make_shared<spdlog::sinks::stderr_sink_mt>());
    } else {
      spdlog::init_thread_pool(8192, 1);
      // The sink runs on the pool's own thread only, which the pool outlives.
      auto* pool = spdlog::thread_pool().get();
      auto sink = std::make_shared<BatchingSink>(STDERR_FILENO,
                                                 [pool] { return pool->queue_size(); });
      async_logger = std::make_shared<spdlog::async_logger>(
          "vouch", std::move(sink), spdlog::thread_pool(), spdlog::async_overflow_policy::block);
    }
    async_logger->set_pattern("%v");
    async_logger->set_level(spdlog::level::debug);
  }
  return async_logger;
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
  logger()->log(spdlog_level(level), "{}", boost::json::serialize(line));
}

void flush() {
  std::shared_ptr<spdlog::logger> stopping;
  {
    const std::lock_guard lock(logger_mutex);
    stopping = std::move(async_logger);
    async_logger.reset();
    flushed = true;
  }
  if (stopping) stopping->flush();
  stopping.reset();
  spdlog::shutdown();
}

}  // namespace vouch::log
