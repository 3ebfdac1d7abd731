#pragma once

#include <cstdint>
#include <filesystem>

#include "base/result.hpp"
#include "store/database.hpp"

namespace vouch::store {

struct BackupReport {
  std::filesystem::path to;
  std::uint64_t last_position = 0;  // where the copy's event log ends
  std::uint64_t files = 0;          // files outside RocksDB copied (reports, snapshots)
};

// Copies the open data folder to `to`, a folder that must not exist yet:
// RocksDB's Checkpoint of the database (its memtables flushed first, so the
// copy is the database as of one moment, every column family together), then
// the folder's own durable files (`reports/`, `snapshots/`; both are written
// once under new names, so a copy taken after the checkpoint holds everything
// the copied log refers to). Caches and work folders are not copied: vouchd
// rebuilds them. The copy is then verified (verify_backup). Thread-safe; the
// database keeps serving meanwhile. kInvalid when `to` exists; kInternal when
// copying or verifying fails, and then `to` is removed.
[[nodiscard]] base::Result<BackupReport> back_up(Database& database,
                                                 const std::filesystem::path& to);

// Opens the copy at `to` as vouchd would and reads its whole event log: the
// log's end agrees with the counter and the stream heads, and no event is
// missing or unreadable. Returns where the log ends.
[[nodiscard]] base::Result<std::uint64_t> verify_backup(const std::filesystem::path& to);

}  // namespace vouch::store
