#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "base/result.hpp"

namespace rocksdb {
class Cache;
class DB;
class ColumnFamilyHandle;
class Env;
class Status;
class WriteBatch;
class WriteBufferManager;
struct WriteOptions;
}  // namespace rocksdb

namespace vouch::store {

class InfoLog;

// Whether the data folder takes writes, as GET /readyz and /metrics tell it.
struct StorageHealth {
  bool writable = true;
  bool out_of_space = false;     // the fault was ENOSPC (or a space limit), not another I/O error
  std::string problem;           // why writes are refused; empty while writable
  std::uint64_t faults = 0;      // times writes stopped since the folder was opened
  std::uint64_t recoveries = 0;  // times they resumed
  // While writes are refused for a full disk: the free space last seen, and
  // how much must be free before DB::Resume() is tried.
  std::uint64_t free_bytes = 0;
  std::uint64_t resume_reserve_bytes = 0;
  std::uint64_t info_log_lines_dropped = 0;  // RocksDB's LOG lines the disk refused
};

// The RocksDB instance behind a data folder and its column families:
//   events  — position (big-endian u64) → recorded event
//   streams — stream heads and the per-stream index
//   views   — read models and their checkpoints
//   meta    — the log's own bookkeeping (last position)
//   secrets — wrapped data keys (secrets/key_store.hpp); not part of the log, so
//             a key can be destroyed
// Thread-safe, like rocksdb::DB itself. Outlives everything that uses it.
//
// Every write goes through write(), the folder's write gate. Before a write,
// the gate checks the disk's free space: below what RocksDB may need next
// (resume_reserve(): the memtables' flush and a new write-ahead log) it
// closes as for a full disk, before RocksDB fails; that keeps RocksDB out of
// its error recovery, which can hang (see try_resume()). After the first
// failed write or a background error (a full disk, an I/O error) the gate
// closes too: later writes are refused without reaching RocksDB, because
// RocksDB's write-ahead log must not be appended to again once a write to it
// failed (Debian's RocksDB asserts on it). Reads go on. A thread of the
// Database then tries DB::Resume() every `recovery_interval`, after a full
// disk only once the disk has room for what resuming writes
// (resume_reserve()); the gate opens again once Resume() succeeded and writes
// go to a new write-ahead log, and stays closed after a failed one. Closed
// for low space alone, it opens once there is room, without Resume(). RocksDB's
// own automatic recovery is switched off, since it may resume on the failed
// log. RocksDB resumes from a full disk (a hard error) but not from an I/O
// error on its write-ahead log (a fatal one): then health() says so, and
// writes stay refused until vouchd is restarted. RocksDB's info log is an
// InfoLog, which drops lines on a full disk where RocksDB's own aborts.
class Database {
 public:
  // RocksDB's memory: one block cache, and the memtables of every column
  // family charged to it (a write buffer manager), so that the cache's
  // capacity bounds both; index and filter blocks live in the cache too.
  struct Memory {
    std::size_t cache_bytes = 128 << 20;        // block cache, memtables included
    std::size_t write_buffer_bytes = 64 << 20;  // memtables of all column families
  };

  struct Options {
    Memory memory;
    // The environment RocksDB runs on; nullptr for the default (tests wrap
    // its file system to inject faults).
    rocksdb::Env* env = nullptr;
    std::chrono::milliseconds recovery_interval{1000};
  };

  // Creates the folder and column families when missing. kInternal with
  // RocksDB's reason when the folder cannot be opened (e.g. locked by another
  // process).
  [[nodiscard]] static base::Result<std::unique_ptr<Database>> open(
      const std::filesystem::path& folder, Options options);
  [[nodiscard]] static base::Result<std::unique_ptr<Database>> open(
      const std::filesystem::path& folder) {
    return open(folder, Options{});
  }

  // What RocksDB's memory holds now, against its capacities.
  struct MemoryUse {
    std::size_t cache_bytes = 0;  // charged to the block cache, the memtables' share included
    std::size_t cache_capacity = 0;
    std::size_t memtable_bytes = 0;  // as the write buffer manager counts them
    std::size_t memtable_limit = 0;  // the write buffer manager flushes at this
  };
  MemoryUse memory_use() const;

  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // For reads. Writes go through write().
  rocksdb::DB& db() const { return *db_; }
  rocksdb::ColumnFamilyHandle* events() const { return handles_[1]; }
  rocksdb::ColumnFamilyHandle* streams() const { return handles_[2]; }
  rocksdb::ColumnFamilyHandle* views() const { return handles_[3]; }
  rocksdb::ColumnFamilyHandle* secrets() const { return handles_[4]; }

  // Writes `batch` atomically. While the gate is closed: kInsufficientStorage
  // (507) when the disk is full (or too full to write safely), else
  // kUnavailable (503), both with a Retry-After, and RocksDB is not called;
  // never waits for a recovery. A write that fails closes the
  // gate and returns the same kinds: the batch is not acknowledged (when its
  // fsync failed, it may still be found whole after a restart). Other
  // refusals (not storage faults) are kInternal and leave the gate open.
  // Thread-safe.
  [[nodiscard]] base::Status write(const rocksdb::WriteOptions& options,
                                   rocksdb::WriteBatch& batch);
  StorageHealth health() const;

  // The value of `key` in the views column family; nullopt when absent,
  // kInternal when RocksDB fails. Thread-safe.
  [[nodiscard]] base::Result<std::optional<std::string>> read_view(std::string_view key) const;
  // The same, the value read with `read(text)`, which gives a T or an error.
  template <class T, class Read>
  [[nodiscard]] base::Result<std::optional<T>> read_view(std::string_view key, Read read) const {
    auto text = read_view(key);
    if (!text) return std::move(text).error();
    if (!*text) return std::optional<T>{};
    base::Result<T> value = read(**text);
    if (!value) return std::move(value).error();
    return std::optional<T>{std::move(value).value()};
  }
  rocksdb::ColumnFamilyHandle* meta() const { return handles_[0]; }
  const std::filesystem::path& folder() const { return folder_; }

 private:
  class FaultListener;
  Database() = default;

  // Closes the gate; `wal`: the fault was a write to the write-ahead log,
  // so writes resume only once RocksDB writes to another one.
  void record_fault(const rocksdb::Status& status, bool wal);
  base::Error refusal() const;  // REQUIRES: state_mutex_ held
  // Why writes are refused, a recovery that is stuck included.
  std::string problem() const;  // REQUIRES: state_mutex_ held
  std::optional<std::uint64_t> current_wal() const;
  void run_recovery();
  // Whether the disk has room for DB::Resume(): free space (as RocksDB's
  // Env sees it) of at least resume_reserve().
  bool has_room_to_resume();
  // Whether the disk has room for a write; closes the gate when it has not.
  bool has_room_to_write();
  std::uint64_t resume_reserve() const;
  // Opens the gate again: after DB::Resume() when RocksDB failed, else at
  // once. Debian's RocksDB (7.8) can wait forever in Resume() when a flush
  // job was scheduled before the failure and ran after it: that job leaves
  // its request on the flush queue uncounted, and the flush Resume() waits
  // for is never scheduled. Writers do not wait for it (write() refuses
  // while the gate is closed), and after kResumeLimit health() says a
  // restart is needed. The free-space check in write() keeps a full disk
  // from failing RocksDB's writes in the first place.
  void try_resume();

  std::filesystem::path folder_;
  Options options_;
  std::uint64_t wal_preallocation_bytes_ = 0;  // what a new write-ahead log takes at once
  std::shared_ptr<rocksdb::Cache> cache_;
  std::shared_ptr<rocksdb::WriteBufferManager> write_buffers_;  // counts the memtables' bytes
  std::shared_ptr<InfoLog> info_log_;
  std::unique_ptr<rocksdb::DB> db_;
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;  // owned; released in the destructor

  // Writers hold it shared around the gate check and the write; recovery
  // holds it alone, so no write runs while RocksDB resumes.
  std::shared_mutex write_mutex_;
  std::atomic<bool> writable_{true};
  mutable std::mutex state_mutex_;  // guards what follows
  StorageHealth health_;
  bool wal_failed_ = false;
  bool rocksdb_failed_ = false;  // RocksDB holds a background error: resuming needs Resume()
  // Since when DB::Resume() runs; it may never return (see try_resume()).
  std::optional<std::chrono::steady_clock::time_point> resuming_since_;
  // The write-ahead log that failed (read before the first Resume()).
  std::optional<std::uint64_t> failed_wal_;
  std::string last_resume_problem_;
  bool closing_ = false;
  std::condition_variable recovery_wake_;
  std::thread recovery_;  // started by open()
};

}  // namespace vouch::store
