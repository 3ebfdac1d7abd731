#pragma once

#include <spdlog/details/null_mutex.h>
#include <spdlog/sinks/base_sink.h>

#include <functional>
#include <string>

// The sink of the async logger: lines go to a descriptor (stderr) in
// batches. The logger's one background thread appends each line to a buffer
// and writes the buffer out once its queue is empty or the buffer is full, so
// a burst of lines costs one write() instead of one each, and a line never
// waits for the next one: when no other line is queued it is written at once.
//
// Only the async logger's thread calls it, hence no mutex.
namespace vouch::log {

class BatchingSink final : public spdlog::sinks::base_sink<spdlog::details::null_mutex> {
 public:
  // `queued` tells how many lines still wait in the logger's queue.
  BatchingSink(int fd, std::function<std::size_t()> queued);
  ~BatchingSink() override;

 protected:
  void sink_it_(const spdlog::details::log_msg& message) override;
  void flush_() override;

 private:
  void write_out();

  int fd_;
  std::function<std::size_t()> queued_;
  std::string buffer_;
};

}  // namespace vouch::log
