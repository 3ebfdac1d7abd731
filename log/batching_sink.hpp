#pragma once

#include <spdlog/sinks/base_sink.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

// The log's sink: lines go to a descriptor (stderr) in batches, written by a
// thread of its own.
//
// Logging a line appends it to a buffer and returns: no system call, and no
// wake-up of the writer while lines keep coming. The writer wakes when the
// first line arrives after a quiet spell, gathers for up to `gather_for` (at
// once for a warning or an error, or when kBatchBytes have gathered) and
// writes everything with one write(). A logger more than kMaxBufferedBytes
// ahead of the writer (stderr blocked) waits for it.
//
// When the descriptor refuses a write (a full disk: ENOSPC; a non-blocking
// pipe: EAGAIN) lines are dropped whole and counted, never torn: a line
// whose beginning was written is finished first, before anything else, by a
// later write. Nothing is interleaved: one thread writes.
namespace vouch::log {

class BatchingSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  // `gather_for`: how long an info line may wait to be written with others.
  explicit BatchingSink(int fd,
                        std::chrono::milliseconds gather_for = std::chrono::milliseconds(50));
  ~BatchingSink() override;  // writes every line still buffered

  // Lines dropped because the descriptor refused them. Thread-safe.
  std::uint64_t dropped_lines() const { return dropped_lines_.load(std::memory_order_relaxed); }

 protected:
  // Both run with base_sink's mutex_ held.
  void sink_it_(const spdlog::details::log_msg& message) override;
  void flush_() override;  // returns once every line so far is written

 private:
  void write_loop();
  // Writes `batch` after what is left of a line begun earlier; drops and
  // counts the whole lines the descriptor refuses. Writer thread only.
  void write_all(const std::string& batch);
  // Writes bytes until done or refused; how many were written.
  std::size_t write_some(std::string_view bytes) const;

  const int fd_;
  const std::chrono::milliseconds gather_for_;
  // Guarded by mutex_ (base_sink's).
  std::string buffer_;
  bool urgent_ = false;    // a warning, an error, a flush or a full batch waits
  bool sleeping_ = false;  // the writer waits for a first line
  bool writing_ = false;   // the writer holds a batch outside the lock
  bool stopping_ = false;
  std::string unfinished_;  // writer thread only: the rest of a line begun but refused
  std::atomic<std::uint64_t> dropped_lines_{0};
  std::condition_variable wake_writer_;
  std::condition_variable written_;
  std::thread writer_;  // last: starts once the rest is built
};

}  // namespace vouch::log
