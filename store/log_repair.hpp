#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "store/database.hpp"

namespace vouch::store {

// What `vouchd repair` found in a data folder's event log, and what it did.
struct LogRepairReport {
  std::uint64_t end = 0;             // the last position the events hold
  std::vector<std::string> damaged;  // the events themselves: a gap, an unreadable record
  std::vector<std::string> derived;  // the counter, heads or index disagree with the events
  bool repaired = false;             // `derived` was rewritten from the events
};

// Reads the whole event log and compares everything derived from it (the
// stored counter, every stream's head and index) with the events. When the
// events are whole (positions 1..end without a gap, each readable, each
// stream's versions 1, 2, 3... in log order) the derived keys are provably
// recomputable: with `apply`, they are rewritten from the events in one
// synced batch. When the events are damaged nothing is changed: there is no
// safe fix, and the report says what is wrong. kInternal when reading fails.
// REQUIRES: no EventLog is open on `database`.
[[nodiscard]] base::Result<LogRepairReport> repair_log(Database& database, bool apply);

}  // namespace vouch::store
