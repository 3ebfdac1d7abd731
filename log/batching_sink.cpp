#include "log/batching_sink.hpp"

#include <unistd.h>

#include <algorithm>
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

std::size_t BatchingSink::write_some(std::string_view bytes) const {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const auto written = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) break;  // refused (ENOSPC, EAGAIN, a closed stderr)
    done += static_cast<std::size_t>(written);
  }
  return done;
}

void BatchingSink::write_all(const std::string& batch) {
  const auto count_lines = [](std::string_view bytes) {
    return static_cast<std::uint64_t>(std::count(bytes.begin(), bytes.end(), '\n'));
  };
  if (!unfinished_.empty()) {
    const auto done = write_some(unfinished_);
    unfinished_.erase(0, done);
    if (!unfinished_.empty()) {
      // Still refused: everything after the begun line waits for it, so it goes.
      dropped_lines_.fetch_add(count_lines(batch), std::memory_order_relaxed);
      return;
    }
  }
  const std::string_view bytes(batch);
  const auto done = write_some(bytes);
  if (done == bytes.size()) return;
  auto rest = bytes.substr(done);
  if (done != 0 && bytes[done - 1] != '\n') {
    // A line was cut: its rest is written first next time.
    const auto end = rest.find('\n');
    const auto line_end = end == std::string_view::npos ? rest.size() : end + 1;
    unfinished_.assign(rest.substr(0, line_end));
    rest.remove_prefix(line_end);
  }
  dropped_lines_.fetch_add(count_lines(rest), std::memory_order_relaxed);
}

}  // namespace vouch::log
