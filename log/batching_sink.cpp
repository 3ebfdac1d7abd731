#include "log/batching_sink.hpp"

#include <unistd.h>

#include <cerrno>
#include <utility>

namespace vouch::log {
namespace {

// Beyond this a batch is written out even while lines are still queued.
constexpr std::size_t kBatchBytes = 64 * 1024;

}  // namespace

BatchingSink::BatchingSink(int fd, std::function<std::size_t()> queued)
    : fd_(fd), queued_(std::move(queued)) {
  buffer_.reserve(kBatchBytes);
}

BatchingSink::~BatchingSink() { write_out(); }

void BatchingSink::sink_it_(const spdlog::details::log_msg& message) {
  spdlog::memory_buf_t formatted;
  formatter_->format(message, formatted);
  buffer_.append(formatted.data(), formatted.size());
  if (buffer_.size() >= kBatchBytes || queued_() == 0) write_out();
}

void BatchingSink::flush_() { write_out(); }

void BatchingSink::write_out() {
  std::size_t done = 0;
  while (done < buffer_.size()) {
    const auto written = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) break;  // stderr gone: nowhere left to say so
    done += static_cast<std::size_t>(written);
  }
  buffer_.clear();
}

}  // namespace vouch::log
