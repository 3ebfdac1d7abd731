#include "app/open_files.hpp"

#include <sys/resource.h>

#include <cerrno>
#include <cstring>

namespace vouch::app {

std::string raise_open_file_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) {
    return std::string("cannot read the open-file limit: ") + std::strerror(errno);
  }
  if (limit.rlim_cur == limit.rlim_max) {
    return "open files: at most " + std::to_string(limit.rlim_cur);
  }
  const auto before = limit.rlim_cur;
  limit.rlim_cur = limit.rlim_max;
  if (setrlimit(RLIMIT_NOFILE, &limit) != 0) {
    return "open files: at most " + std::to_string(before) +
           " (raising it failed: " + std::strerror(errno) + ")";
  }
  return "open files: at most " + std::to_string(limit.rlim_cur) + " (raised from " +
         std::to_string(before) + ")";
}

}  // namespace vouch::app
