#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vouch::base {

// Milliseconds since the Unix epoch, UTC. Commands carry their time so that
// decide() stays a pure function.
using Millis = std::int64_t;

Millis now_millis();

// "2026-11-22T10:00:00.000Z"
std::string format_timestamp(Millis at);

// Parses the exact form format_timestamp() writes; nullopt otherwise.
std::optional<Millis> parse_timestamp(std::string_view text);

}  // namespace vouch::base
