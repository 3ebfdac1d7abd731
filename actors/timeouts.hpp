#pragma once

#include <chrono>

// How long one actor waits for another. No request inside the service waits
// forever: a peer that died or hangs ends the wait with CAF's request_timeout,
// which the API answers as 503 (actors/errors.cpp).
namespace vouch::actors {

// An append to the event log. The log answers every append (committed,
// conflict, busy or failed) within milliseconds to seconds; past this bound
// the outcome is unknown to the caller, which says so.
inline constexpr std::chrono::seconds kAppendTimeout{30};

// A request between two actors of this process that answer at once.
inline constexpr std::chrono::seconds kLocalRequestTimeout{30};

// Added to a peer's own time limit (an npm install, a wait for a free
// runner) so that the peer's limit, with its clearer error, ends first.
inline constexpr std::chrono::seconds kBackstopMargin{60};

}  // namespace vouch::actors
