#include "log/batching_sink.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <utility>

namespace vouch::log {
namespace {

// A batch this large is written at once.
constexpr std::size_t kBatchBytes = 256 * 1024;
// Loggers wait for the writer beyond this.
constexpr std::size_t kMaxBufferedBytes = 16 * 1024 * 1024;

}  // namespace

BatchingSink::BatchingSink(int fd, std::chrono::milliseconds gather_for)
    : fd_(fd), gather_for_(gather_for), writer_([this] { write_loop(); }) {}

BatchingSink::~BatchingSink() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_writer_.notify_one();
  writer_.join();
}

void BatchingSink::sink_it_(const spdlog::details::log_msg& message) {
  // base_sink::log() holds mutex_: adopt it to wait, give it back as held.
  std::unique_lock lock(mutex_, std::adopt_lock);
  written_.wait(lock, [this] { return buffer_.size() < kMaxBufferedBytes; });
  spdlog::memory_buf_t formatted;
  formatter_->format(message, formatted);
  buffer_.append(formatted.data(), formatted.size());
  const bool urgent = message.level >= spdlog::level::warn || buffer_.size() >= kBatchBytes;
  urgent_ = urgent_ || urgent;
  if (sleeping_ || urgent) {
    sleeping_ = false;
    wake_writer_.notify_one();
  }
  lock.release();
}

void BatchingSink::flush_() {
  std::unique_lock lock(mutex_, std::adopt_lock);
  urgent_ = true;
  wake_writer_.notify_one();
  written_.wait(lock, [this] { return buffer_.empty() && !writing_; });
  lock.release();
}

void BatchingSink::write_loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    sleeping_ = buffer_.empty() && !stopping_;
    wake_writer_.wait(lock, [this] { return !sleeping_ || stopping_ || urgent_; });
    wake_writer_.wait_for(lock, gather_for_, [this] { return urgent_ || stopping_; });
    if (buffer_.empty() && stopping_) return;
    std::string batch;
    batch.swap(buffer_);
    urgent_ = false;
    writing_ = true;
    lock.unlock();
    write_all(batch);
    lock.lock();
    writing_ = false;
    written_.notify_all();
  }
}

void BatchingSink::write_all(const std::string& batch) const {
  std::size_t done = 0;
  while (done < batch.size()) {
    const auto written = ::write(fd_, batch.data() + done, batch.size() - done);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;  // stderr gone: nowhere left to say so
    done += static_cast<std::size_t>(written);
  }
}

}  // namespace vouch::log
