#include "events/clock.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>

namespace vouch::events {

Millis now_millis() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

std::string format_timestamp(Millis at) {
  std::time_t seconds = static_cast<std::time_t>(at / 1000);
  int millis = static_cast<int>(at % 1000);
  if (millis < 0) {
    millis += 1000;
    seconds -= 1;
  }
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, millis);
  return buffer;
}

std::optional<Millis> parse_timestamp(std::string_view text) {
  if (text.size() != 24) return std::nullopt;
  std::tm utc{};
  int millis = 0;
  char tail = 0;
  const std::string copy(text);
  if (std::sscanf(copy.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d.%3d%c", &utc.tm_year, &utc.tm_mon,
                  &utc.tm_mday, &utc.tm_hour, &utc.tm_min, &utc.tm_sec, &millis, &tail) != 8 ||
      tail != 'Z') {
    return std::nullopt;
  }
  utc.tm_year -= 1900;
  utc.tm_mon -= 1;
  return static_cast<Millis>(timegm(&utc)) * 1000 + millis;
}

}  // namespace vouch::events
