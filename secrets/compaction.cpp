#include "secrets/compaction.hpp"

#include <rocksdb/db.h>

#include <string>
#include <vector>

namespace vouch::secrets {

base::Status flush_and_compact(store::Database& database,
                               std::initializer_list<rocksdb::ColumnFamilyHandle*> families,
                               std::string_view who) {
  const auto failed = [who](const rocksdb::Status& status, std::string_view what) {
    return base::Error::internal(std::string(who) + " cannot " + std::string(what) + ": " +
                                 status.ToString());
  };
  auto& db = database.db();
  const std::vector<rocksdb::ColumnFamilyHandle*> all{db.DefaultColumnFamily(), database.events(),
                                                      database.streams(), database.views(),
                                                      database.secrets()};
  rocksdb::FlushOptions flush;
  flush.wait = true;
  if (auto status = db.Flush(flush, all); !status.ok()) return failed(status, "flush");
  rocksdb::CompactRangeOptions compact;
  compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  for (auto* family : families) {
    if (auto status = db.CompactRange(compact, family, nullptr, nullptr); !status.ok()) {
      return failed(status, "compact");
    }
  }
  return base::ok_status();
}

}  // namespace vouch::secrets
