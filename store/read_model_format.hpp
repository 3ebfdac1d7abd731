#pragma once

#include <cstdint>
#include <optional>

#include "base/result.hpp"
#include "store/database.hpp"

namespace vouch::store {

// The layout of the read models' keys and values, recorded in the data
// folder. 1: before it was recorded; 2: delivery-log entries hold the log
// position of their attempt instead of a copy of it, and each webhook's
// index of them is keys only; 3: the events read model holds public events
// in their published form (events/public_types.hpp) and an index per project.
inline constexpr std::uint64_t kReadModelFormat = 3;

// Before the read models are opened: when the data folder's read models were
// written in another format, clears them and their checkpoints, so that the
// projector rebuilds them from the whole log; then records kReadModelFormat.
// Returns the format found when it clears them (the caller says so in its
// log), nullopt when nothing had to change.
[[nodiscard]] base::Result<std::optional<std::uint64_t>> prepare_read_model_format(
    Database& database);

}  // namespace vouch::store
