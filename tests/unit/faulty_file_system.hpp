#pragma once

#include <rocksdb/env.h>
#include <rocksdb/file_system.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

// RocksDB's file system with faults on demand, as LevelDB's
// fault_injection_test wraps its Env: from fail() on, appends, syncs and
// renames (as chosen) answer ENOSPC or EIO the way RocksDB's POSIX file
// system reports them, until heal(); report_free() sets the free space the
// disk reports. Thread-safe.
namespace vouch::testing {

class FaultyFileSystem : public rocksdb::FileSystemWrapper {
 public:
  enum class Fault { kNone, kNoSpace, kIoError };
  enum Operation : unsigned { kAppend = 1, kSync = 2, kRename = 4, kAll = 7 };

  FaultyFileSystem() : rocksdb::FileSystemWrapper(rocksdb::FileSystem::Default()) {}
  const char* Name() const override { return "vouch.FaultyFileSystem"; }

  void fail(Fault fault, unsigned operations) {
    operations_.store(operations);
    fault_.store(fault);
  }
  void heal() { fault_.store(Fault::kNone); }
  // The free space the disk reports from now on (nullopt: the real disk's),
  // independently of injected faults: a disk may fill before a write fails.
  void report_free(std::optional<std::uint64_t> bytes) {
    reported_free_.store(bytes ? static_cast<std::int64_t>(*bytes) : -1);
  }
  // Faults answered so far.
  int injected() const { return injected_.load(); }

  // A fault for `operation` on `file`, or OK.
  rocksdb::IOStatus check(Operation operation, const std::string& file) {
    const auto fault = fault_.load();
    if (fault == Fault::kNone || (operations_.load() & operation) == 0) {
      return rocksdb::IOStatus::OK();
    }
    ++injected_;
    if (fault == Fault::kNoSpace) {
      auto status = rocksdb::IOStatus::NoSpace("injected ENOSPC", file);
      status.SetRetryable(true);  // as env/io_posix.h reports ENOSPC
      return status;
    }
    return rocksdb::IOStatus::IOError("injected EIO", file);
  }

  // A file that `status` opened, wrapped so its writes meet the faults.
  rocksdb::IOStatus watched(rocksdb::IOStatus status,
                            std::unique_ptr<rocksdb::FSWritableFile>* result,
                            const std::string& name) {
    if (status.ok()) *result = std::make_unique<File>(std::move(*result), *this, name);
    return status;
  }

  rocksdb::IOStatus NewWritableFile(const std::string& name, const rocksdb::FileOptions& options,
                                    std::unique_ptr<rocksdb::FSWritableFile>* result,
                                    rocksdb::IODebugContext* dbg) override {
    return watched(target()->NewWritableFile(name, options, result, dbg), result, name);
  }
  rocksdb::IOStatus ReopenWritableFile(const std::string& name, const rocksdb::FileOptions& options,
                                       std::unique_ptr<rocksdb::FSWritableFile>* result,
                                       rocksdb::IODebugContext* dbg) override {
    return watched(target()->ReopenWritableFile(name, options, result, dbg), result, name);
  }
  rocksdb::IOStatus ReuseWritableFile(const std::string& name, const std::string& old_name,
                                      const rocksdb::FileOptions& options,
                                      std::unique_ptr<rocksdb::FSWritableFile>* result,
                                      rocksdb::IODebugContext* dbg) override {
    return watched(target()->ReuseWritableFile(name, old_name, options, result, dbg), result, name);
  }
  rocksdb::IOStatus GetFreeSpace(const std::string& path, const rocksdb::IOOptions& options,
                                 uint64_t* free, rocksdb::IODebugContext* dbg) override {
    if (const auto reported = reported_free_.load(); reported >= 0) {
      *free = static_cast<uint64_t>(reported);
      return rocksdb::IOStatus::OK();
    }
    return target()->GetFreeSpace(path, options, free, dbg);
  }
  rocksdb::IOStatus RenameFile(const std::string& from, const std::string& to,
                               const rocksdb::IOOptions& options,
                               rocksdb::IODebugContext* dbg) override {
    if (auto status = check(kRename, to); !status.ok()) return status;
    return target()->RenameFile(from, to, options, dbg);
  }

 private:
  class File : public rocksdb::FSWritableFileOwnerWrapper {
   public:
    File(std::unique_ptr<rocksdb::FSWritableFile> file, FaultyFileSystem& fs, std::string name)
        : rocksdb::FSWritableFileOwnerWrapper(std::move(file)), fs_(fs), name_(std::move(name)) {}
    rocksdb::IOStatus Append(const rocksdb::Slice& data, const rocksdb::IOOptions& options,
                             rocksdb::IODebugContext* dbg) override {
      if (auto status = fs_.check(kAppend, name_); !status.ok()) return status;
      return target()->Append(data, options, dbg);
    }
    rocksdb::IOStatus Append(const rocksdb::Slice& data, const rocksdb::IOOptions& options,
                             const rocksdb::DataVerificationInfo& info,
                             rocksdb::IODebugContext* dbg) override {
      if (auto status = fs_.check(kAppend, name_); !status.ok()) return status;
      return target()->Append(data, options, info, dbg);
    }
    rocksdb::IOStatus PositionedAppend(const rocksdb::Slice& data, uint64_t offset,
                                       const rocksdb::IOOptions& options,
                                       rocksdb::IODebugContext* dbg) override {
      if (auto status = fs_.check(kAppend, name_); !status.ok()) return status;
      return target()->PositionedAppend(data, offset, options, dbg);
    }
    rocksdb::IOStatus PositionedAppend(const rocksdb::Slice& data, uint64_t offset,
                                       const rocksdb::IOOptions& options,
                                       const rocksdb::DataVerificationInfo& info,
                                       rocksdb::IODebugContext* dbg) override {
      if (auto status = fs_.check(kAppend, name_); !status.ok()) return status;
      return target()->PositionedAppend(data, offset, options, info, dbg);
    }
    rocksdb::IOStatus Sync(const rocksdb::IOOptions& options,
                           rocksdb::IODebugContext* dbg) override {
      if (auto status = fs_.check(kSync, name_); !status.ok()) return status;
      return target()->Sync(options, dbg);
    }
    rocksdb::IOStatus Fsync(const rocksdb::IOOptions& options,
                            rocksdb::IODebugContext* dbg) override {
      if (auto status = fs_.check(kSync, name_); !status.ok()) return status;
      return target()->Fsync(options, dbg);
    }
    rocksdb::IOStatus RangeSync(uint64_t offset, uint64_t bytes, const rocksdb::IOOptions& options,
                                rocksdb::IODebugContext* dbg) override {
      if (auto status = fs_.check(kSync, name_); !status.ok()) return status;
      return target()->RangeSync(offset, bytes, options, dbg);
    }

   private:
    FaultyFileSystem& fs_;
    std::string name_;
  };

  std::atomic<Fault> fault_{Fault::kNone};
  std::atomic<unsigned> operations_{0};
  std::atomic<int> injected_{0};
  std::atomic<std::int64_t> reported_free_{-1};  // -1: the real disk's
};

// An Env over `fs`, for Database::Options::env.
inline std::unique_ptr<rocksdb::Env> env_over(const std::shared_ptr<FaultyFileSystem>& fs) {
  return rocksdb::NewCompositeEnv(fs);
}

}  // namespace vouch::testing
