#pragma once

#include <rocksdb/env.h>

#include <atomic>
#include <cstdarg>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>

#include "base/result.hpp"

namespace vouch::store {

// RocksDB's info log, the data folder's LOG file, written a whole line at a
// time. RocksDB's own logger keeps its lines in a buffered file writer that,
// once a write to the file failed (a full disk), asserts on the next line:
// Debian's RocksDB keeps assertions on, so a full disk aborted vouchd. Here a
// line the disk refuses is cut back off the file and counted; the next line
// is tried afresh, so logging resumes with the space. The previous run's LOG
// is kept as LOG.old. Thread-safe.
class InfoLog final : public rocksdb::Logger {
 public:
  [[nodiscard]] static base::Result<std::shared_ptr<InfoLog>> open(
      const std::filesystem::path& folder);
  ~InfoLog() override;
  InfoLog(const InfoLog&) = delete;
  InfoLog& operator=(const InfoLog&) = delete;

  using rocksdb::Logger::Logv;
  void Logv(const char* format, va_list ap) override;
  std::size_t GetLogFileSize() const override;

  // Lines dropped because the file refused them.
  std::uint64_t dropped_lines() const { return dropped_lines_.load(std::memory_order_relaxed); }

 private:
  explicit InfoLog(int fd);

  const int fd_;
  std::mutex mutex_;  // one line at a time, so that a refused one can be cut off whole
  std::atomic<std::uint64_t> dropped_lines_{0};
};

}  // namespace vouch::store
