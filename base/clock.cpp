#include "base/clock.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>

namespace vouch::base {

Millis now_millis() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

namespace {

// Writes `value` as `width` decimal digits, zero-padded, ending before `end`.
char* put_digits(char* end, unsigned value, int width) {
  for (int i = 0; i < width; ++i) {
    *--end = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  return end;
}

}  // namespace

// By hand rather than gmtime_r and snprintf: a project's answer has two
// timestamps, and those took a lock (glibc's time zone lock, even for UTC)
// and a printf each, about 1% of a read's CPU.
// Times outside the years 0000 to 9999 are written as the nearest end.
std::string format_timestamp(Millis at) {
  using namespace std::chrono;
  constexpr sys_time<milliseconds> kFirst = sys_days{year{0} / January / 1};
  constexpr sys_time<milliseconds> kLast = sys_days{year{10000} / January / 1} - milliseconds(1);
  const auto time = std::clamp(sys_time<milliseconds>{milliseconds(at)}, kFirst, kLast);
  const auto day = floor<days>(time);
  const year_month_day date{day};
  const hh_mm_ss clock{time - day};
  std::string out(24, '\0');  // YYYY-MM-DDTHH:MM:SS.mmmZ
  char* end = out.data() + out.size();
  *--end = 'Z';
  end = put_digits(end, static_cast<unsigned>(clock.subseconds().count()), 3);
  *--end = '.';
  end = put_digits(end, static_cast<unsigned>(clock.seconds().count()), 2);
  *--end = ':';
  end = put_digits(end, static_cast<unsigned>(clock.minutes().count()), 2);
  *--end = ':';
  end = put_digits(end, static_cast<unsigned>(clock.hours().count()), 2);
  *--end = 'T';
  end = put_digits(end, static_cast<unsigned>(date.day()), 2);
  *--end = '-';
  end = put_digits(end, static_cast<unsigned>(date.month()), 2);
  *--end = '-';
  put_digits(end, static_cast<unsigned>(static_cast<int>(date.year())), 4);
  return out;
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

}  // namespace vouch::base
