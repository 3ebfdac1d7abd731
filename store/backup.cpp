#include "store/backup.hpp"

#include <rocksdb/db.h>
#include <rocksdb/utilities/checkpoint.h>

#include <memory>

#include "store/log_end.hpp"
#include "store/log_repair.hpp"

namespace vouch::store {
namespace {

namespace fs = std::filesystem;

// The data folder's durable files outside RocksDB.
constexpr const char* kDurableFolders[] = {"reports", "snapshots"};

base::Result<std::uint64_t> copy_durable_folders(const fs::path& from, const fs::path& to) {
  std::uint64_t files = 0;
  for (const char* name : kDurableFolders) {
    std::error_code ec;
    if (!fs::exists(from / name, ec)) continue;
    for (auto it = fs::recursive_directory_iterator(from / name, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      const auto target = to / fs::relative(it->path(), from, ec);
      if (ec) break;
      if (it->is_directory(ec)) {
        fs::create_directories(target, ec);
      } else if (it->is_regular_file(ec)) {
        fs::create_directories(target.parent_path(), ec);
        // A file written while copying may vanish (a swept report): skip it.
        if (!fs::copy_file(it->path(), target, ec) && ec == std::errc::no_such_file_or_directory) {
          ec.clear();
          continue;
        }
        ++files;
      }
      if (ec) break;
    }
    if (ec) {
      return base::Error::internal("cannot copy " + (from / name).string() + ": " + ec.message());
    }
  }
  return files;
}

}  // namespace

base::Result<BackupReport> back_up(Database& database, const fs::path& to) {
  std::error_code ec;
  if (fs::exists(to, ec)) {
    return base::Error::invalid(to.string() + " exists; a backup goes to a new folder");
  }
  rocksdb::Checkpoint* raw = nullptr;
  auto status = rocksdb::Checkpoint::Create(&database.db(), &raw);
  std::unique_ptr<rocksdb::Checkpoint> checkpoint(raw);
  // log_size_for_flush 0: the memtables are always flushed first.
  if (status.ok()) status = checkpoint->CreateCheckpoint(to.string(), 0);
  if (!status.ok()) {
    fs::remove_all(to, ec);
    return base::Error::internal("cannot checkpoint the database into " + to.string() + ": " +
                                 status.ToString());
  }
  BackupReport report;
  report.to = to;
  auto files = copy_durable_folders(database.folder(), to);
  auto end = files ? verify_backup(to) : base::Result<std::uint64_t>(files.error());
  if (!end) {
    fs::remove_all(to, ec);
    return std::move(end).error();
  }
  report.files = *files;
  report.last_position = *end;
  return report;
}

base::Result<std::uint64_t> verify_backup(const fs::path& to) {
  auto database = Database::open(to);
  if (!database) return std::move(database).error();
  auto end = read_log_end(**database);
  if (!end) return std::move(end).error();
  auto report = repair_log(**database, false);
  if (!report) return std::move(report).error();
  if (!report->damaged.empty() || !report->derived.empty()) {
    std::string what;
    for (const auto& line : report->damaged) what += "\n  " + line;
    for (const auto& line : report->derived) what += "\n  " + line;
    return base::Error::internal("the copy at " + to.string() + " is not consistent:" + what);
  }
  return *end;
}

}  // namespace vouch::store
