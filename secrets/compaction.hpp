#pragma once

#include <initializer_list>
#include <string_view>

#include "base/result.hpp"
#include "store/database.hpp"

namespace vouch::secrets {

// A deleted or rewritten value stays in RocksDB's files (memtables, older
// SST files) until a compaction drops it, and crypto-shredding needs it gone.
// Flushes every column family, then compacts each of `families` down to the
// bottom level. `who` names the caller in an error ("the key store").
[[nodiscard]] base::Status flush_and_compact(
    store::Database& database, std::initializer_list<rocksdb::ColumnFamilyHandle*> families,
    std::string_view who);

}  // namespace vouch::secrets
