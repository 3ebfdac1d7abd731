#pragma once

#include <cstdint>
#include <string>

#include "base/result.hpp"
#include "store/database.hpp"

namespace vouch::store {

// The stored position up to which a log subscriber has finished its work
// (the meta column family, outside the read models, so a rebuild of the read
// models does not compare it). Written unsynced: after a crash the cursor
// may be behind, and the subscriber redoes what follows it — at least once.
class SubscriberCursor {
 public:
  // REQUIRES: `database` outlives the cursor.
  SubscriberCursor(Database& database, std::string subscriber);

  // 0 when never saved.
  [[nodiscard]] base::Result<std::uint64_t> load() const;
  [[nodiscard]] base::Status save(std::uint64_t position);

 private:
  Database& database_;
  std::string key_;
};

}  // namespace vouch::store
