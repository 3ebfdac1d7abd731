#pragma once

#include <iostream>
#include <sstream>
#include <string_view>

#include "events/clock.hpp"

namespace vouch::actors {

// One structured line on stderr: time, level, component, message.
inline void log_line(std::string_view level, std::string_view component, std::string_view message) {
  std::ostringstream line;
  line << "time=" << events::format_timestamp(events::now_millis()) << " level=" << level
       << " component=" << component << " msg=\"";
  for (const char c : message) {
    if (c == '"' || c == '\\') line << '\\';
    line << (c == '\n' ? ' ' : c);
  }
  line << "\"\n";
  std::cerr << line.str();
}

}  // namespace vouch::actors
