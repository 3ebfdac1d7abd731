#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "base/result.hpp"
#include "events/event_record.hpp"
#include "store/database.hpp"

namespace vouch::store {

// Expected stream versions for append(): a number is the head version the
// caller saw (0 = the stream must not exist yet); kAnyVersion skips the check.
inline constexpr std::uint64_t kNoStream = 0;
inline constexpr std::uint64_t kAnyVersion = std::numeric_limits<std::uint64_t>::max();

struct AppendRequest {
  std::string stream;
  std::uint64_t expected_version = kNoStream;
  std::vector<events::NewEvent> events;
};

struct AppendResult {
  std::uint64_t stream_version = 0;  // the stream's head after the append
  std::vector<events::RecordedEvent> recorded;
};

using AppendCallback = std::function<void(base::Result<AppendResult>)>;

// Told of every commit, in log order, on the writer thread, after the events
// are durable and before any appender hears back; so a read model a listener
// maintains is current when a client gets its answer. Must not block for
// long and must not append.
class CommitListener {
 public:
  virtual ~CommitListener() = default;
  virtual void on_committed(const std::vector<events::RecordedEvent>& committed) = 0;
};

struct EventLogStats {
  std::uint64_t appends = 0;  // requests committed
  std::uint64_t syncs = 0;    // fsync'ed write batches; appends/syncs is the group-commit factor
  std::uint64_t events = 0;
  std::uint64_t conflicts = 0;
};

// The append-only event log: the only source of truth (docs/architecture.md).
//
// Appends are queued to one writer thread, which takes every queued request,
// checks each against the stream's head, writes all accepted events with their
// stream heads, index entries and the last position in ONE synced WriteBatch
// (group commit: concurrent appends share one fsync), tells the listeners,
// then answers each appender. Reads are thread-safe and never wait for the
// writer.
class EventLog {
 public:
  struct Options {
    std::size_t max_pending = 4096;  // queued appends beyond this are refused (kUnavailable)
    std::size_t max_group = 1024;    // appends per WriteBatch
    bool sync = true;                // false only for tools that rebuild from another log
  };

  // Opens the log where it ends (store/log_end.hpp): an error naming what
  // differs when the events, the stored counter and the stream heads
  // disagree, or when they cannot be read. REQUIRES: `database` outlives the
  // log.
  [[nodiscard]] static base::Result<std::unique_ptr<EventLog>> open(Database& database,
                                                                    Options options);
  [[nodiscard]] static base::Result<std::unique_ptr<EventLog>> open(Database& database) {
    return open(database, Options{});
  }
  // Commits what is queued, then stops the writer.
  ~EventLog();
  EventLog(const EventLog&) = delete;
  EventLog& operator=(const EventLog&) = delete;

  // REQUIRES: called before the first append; `listener` outlives the log.
  void add_listener(CommitListener* listener);

  // Queues an append. `done` runs on the writer thread with the recorded
  // events, kConflict when the stream's head is not `expected_version`,
  // kUnavailable when the queue is full or the log is closing, or the
  // database's refusal (kInsufficientStorage or kUnavailable, see
  // Database::write) when the data folder does not take writes; then nothing
  // of it is acknowledged. kUnavailable as well while the log's end cannot be
  // reread after a failure: appends wait for a reread that succeeds.
  void append_async(AppendRequest request, AppendCallback done);
  // Blocking form of append_async, for tools and tests.
  [[nodiscard]] base::Result<AppendResult> append(AppendRequest request);

  // Events of one stream from `from_version` (1-based) on, in order.
  [[nodiscard]] base::Result<std::vector<events::RecordedEvent>> read_stream(
      const std::string& stream, std::uint64_t from_version = 1) const;
  // Up to `max` events with position >= `from_position`, in log order.
  [[nodiscard]] base::Result<std::vector<events::RecordedEvent>> read_all(
      std::uint64_t from_position, std::size_t max) const;

  // Up to `max_scanned` events with position >= `from_position`, in log
  // order, keeping only those whose stored type `wanted` accepts; the others
  // are skipped without being decoded. `next_position` is the position after
  // the last one scanned, `exhausted` whether the log ended before the limit.
  struct FilteredPage {
    std::vector<events::RecordedEvent> events;
    std::uint64_t next_position = 0;
    bool exhausted = false;
  };
  [[nodiscard]] base::Result<FilteredPage> read_all_of(
      std::uint64_t from_position, std::size_t max_scanned,
      const std::function<bool(std::string_view type)>& wanted) const;

  // The highest committed position; 0 for an empty log.
  std::uint64_t last_position() const { return last_position_.load(std::memory_order_acquire); }
  EventLogStats stats() const;
  // Whether the data folder takes writes (Database::health()).
  StorageHealth storage_health() const { return database_.health(); }

 private:
  struct Pending {
    AppendRequest request;
    AppendCallback done;
    bool answered = false;
  };

  EventLog(Database& database, Options options, std::uint64_t last_position);

  void run_writer();
  // Rereads where the log ends and forgets the cached heads; on failure the
  // position stays and appends are refused until a later reread succeeds.
  [[nodiscard]] base::Status reread_end();
  void commit_group(std::vector<Pending>& group);
  // After commit_group threw: rereads the log's end and answers every
  // appender not answered yet.
  void recover(std::vector<Pending>& group, std::uint64_t first_position, const std::string& what);
  // Calls the appender's callback; one that throws is logged.
  static void answer(Pending& pending, base::Result<AppendResult> outcome);
  std::uint64_t head_of(const std::string& stream);

  Database& database_;
  Options options_;
  std::vector<CommitListener*> listeners_;

  std::mutex mutex_;  // guards queue_ and stopping_
  std::condition_variable wake_;
  std::deque<Pending> queue_;
  bool stopping_ = false;

  // Writer-thread only.
  std::unordered_map<std::string, std::uint64_t> heads_;  // cache of stream heads
  std::uint64_t next_position_ = 1;
  bool reread_needed_ = false;  // a write failed or threw: reread the end before the next

  std::atomic<std::uint64_t> last_position_{0};
  std::atomic<std::uint64_t> appends_{0}, syncs_{0}, events_{0}, conflicts_{0};
  std::thread writer_;
};

}  // namespace vouch::store
