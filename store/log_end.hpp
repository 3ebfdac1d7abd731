#pragma once

#include <cstdint>

#include "base/result.hpp"
#include "store/database.hpp"

namespace vouch::store {

// Where the event log ends, read from the log itself: the last key of the
// `events` column family. It is cross-checked with what the log keeps beside
// the events: the stored counter (meta `last-position`), and the head and
// index entry of the last event's stream. Any difference is kInternal with a
// message naming it and pointing to `vouchd repair`; nothing is assumed, and
// a read that fails is an error, never position 0. Thread-safe.
[[nodiscard]] base::Result<std::uint64_t> read_log_end(const Database& database);

}  // namespace vouch::store
