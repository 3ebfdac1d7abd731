#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "events/result.hpp"
#include "store/database.hpp"

namespace vouch::store {

// Walks an index of the views column family: every entry under `prefix`,
// from `start` on, in key order; each entry's value is an id whose record
// is at `record_key(id)`. `visit(record)` gets each record's text and says
// whether to go on. Index and records are read on one snapshot, so a page
// is consistent. Index entries whose record is gone are skipped.
[[nodiscard]] events::Status walk_index(
    Database& database, std::string_view prefix, std::string_view start,
    const std::function<std::string(std::string_view id)>& record_key,
    const std::function<events::Result<bool>(std::string_view record)>& visit);

}  // namespace vouch::store
