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

// Short-lived actors (one per run) wait on peers that answer within limits of
// their own instead: in CAF 0.17 a pending request timeout of an actor that
// has ended keeps the actor system from shutting down until the timeout
// fires (measured: a run actor's 4-minute backstop held vouchd's shutdown
// for the rest of those 4 minutes).

}  // namespace vouch::actors
