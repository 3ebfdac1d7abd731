#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.hpp"

namespace rocksdb {
class Cache;
class DB;
class ColumnFamilyHandle;
}  // namespace rocksdb

namespace vouch::store {

// The RocksDB instance behind a data folder and its column families:
//   events  — position (big-endian u64) → recorded event
//   streams — stream heads and the per-stream index
//   views   — read models and their checkpoints
//   meta    — the log's own bookkeeping (last position)
// Thread-safe, like rocksdb::DB itself. Outlives everything that uses it.
class Database {
 public:
  // RocksDB's memory: one block cache, and the memtables of every column
  // family charged to it (a write buffer manager), so that the cache's
  // capacity bounds both; index and filter blocks live in the cache too.
  struct Memory {
    std::size_t cache_bytes = 128 << 20;        // block cache, memtables included
    std::size_t write_buffer_bytes = 64 << 20;  // memtables of all column families
  };

  // Creates the folder and column families when missing. kInternal with
  // RocksDB's reason when the folder cannot be opened (e.g. locked by another
  // process).
  [[nodiscard]] static base::Result<std::unique_ptr<Database>> open(
      const std::filesystem::path& folder, const Memory& memory);
  [[nodiscard]] static base::Result<std::unique_ptr<Database>> open(
      const std::filesystem::path& folder) {
    return open(folder, Memory{});
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

  rocksdb::DB& db() const { return *db_; }
  rocksdb::ColumnFamilyHandle* events() const { return handles_[1]; }
  rocksdb::ColumnFamilyHandle* streams() const { return handles_[2]; }
  rocksdb::ColumnFamilyHandle* views() const { return handles_[3]; }

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
  Database() = default;

  std::filesystem::path folder_;
  std::shared_ptr<rocksdb::Cache> cache_;
  std::unique_ptr<rocksdb::DB> db_;
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;  // owned; released in the destructor
};

}  // namespace vouch::store
