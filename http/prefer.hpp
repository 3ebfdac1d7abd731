#pragma once

#include <chrono>
#include <optional>
#include <string_view>

namespace vouch::http {

// The `wait` preference of an RFC 7240 `Prefer` header ("wait=20", possibly
// among others: "respond-async, wait=20"): how long the client is willing to
// wait for a final answer, in seconds. nullopt when absent or not a
// non-negative integer; preferences are hints, so a malformed one is ignored
// rather than refused (RFC 7240 §2).
std::optional<std::chrono::seconds> preferred_wait(std::string_view prefer);

// True when the `Prefer` header holds the `respond-async` preference (RFC
// 7240 §4.1), among others or alone, in any case.
bool prefers_respond_async(std::string_view prefer);

}  // namespace vouch::http
