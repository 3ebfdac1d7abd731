#include "store/info_log.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <thread>

namespace vouch::store {
namespace {

// The line's beginning, as RocksDB's own logger writes it:
// "2026/11/26-22:50:00.123456 140237 ".
std::string line_prefix() {
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  tm local{};
  ::localtime_r(&now.tv_sec, &local);
  char prefix[64];
  const auto length = std::snprintf(
      prefix, sizeof prefix, "%04d/%02d/%02d-%02d:%02d:%02d.%06ld %zx ", local.tm_year + 1900,
      local.tm_mon + 1, local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec,
      now.tv_nsec / 1000, std::hash<std::thread::id>{}(std::this_thread::get_id()) & 0xffffff);
  return std::string(prefix, static_cast<std::size_t>(length));
}

}  // namespace

base::Result<std::shared_ptr<InfoLog>> InfoLog::open(const std::filesystem::path& folder) {
  const auto file = folder / "LOG";
  std::error_code ec;
  if (std::filesystem::exists(file, ec)) std::filesystem::rename(file, folder / "LOG.old", ec);
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    return base::Error::internal("cannot open RocksDB's log " + file.string() + ": " +
                                 std::strerror(errno));
  }
  return std::shared_ptr<InfoLog>(new InfoLog(fd));
}

InfoLog::InfoLog(int fd) : rocksdb::Logger(rocksdb::InfoLogLevel::INFO_LEVEL), fd_(fd) {}

InfoLog::~InfoLog() { ::close(fd_); }

void InfoLog::Logv(const char* format, va_list ap) {
  std::string line = line_prefix();
  const auto start = line.size();
  va_list copy;
  va_copy(copy, ap);
  const int length = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  if (length < 0) return;
  line.resize(start + static_cast<std::size_t>(length) + 1);
  std::vsnprintf(line.data() + start, static_cast<std::size_t>(length) + 1, format, ap);
  line.back() = '\n';
  if (line.size() >= 2 && line[line.size() - 2] == '\n') line.pop_back();

  const std::lock_guard lock(mutex_);
  const off_t end = ::lseek(fd_, 0, SEEK_END);
  std::size_t written = 0;
  while (written < line.size()) {
    const auto n = ::write(fd_, line.data() + written, line.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    written += static_cast<std::size_t>(n);
  }
  if (written == line.size()) return;
  // Refused (ENOSPC, EIO): nothing of the line stays.
  if (written > 0 && end >= 0) (void)::ftruncate(fd_, end);
  dropped_lines_.fetch_add(1, std::memory_order_relaxed);
}

std::size_t InfoLog::GetLogFileSize() const {
  struct stat stats {};
  return ::fstat(fd_, &stats) == 0 ? static_cast<std::size_t>(stats.st_size) : 0;
}

}  // namespace vouch::store
