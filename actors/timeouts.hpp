#pragma once

#include <caf/local_actor.hpp>
#include <caf/message_id.hpp>
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

// Drops the timeout of a request that has been answered. CAF 0.17 keeps a
// request's timeout in the actor clock until it fires, even after the
// response came: a long-lived actor then holds one clock entry per request of
// the last 30 s, each new request scans all of them under the clock's mutex
// (simple_actor_clock::set_request_timeout looks the request id up among the
// actor's entries), and each entry later wakes the actor with a stale
// request_timeout that it drops. Called first in both handlers of the
// requests a long-lived actor makes at the rate of the API's writes (project
// and webhook commands, webhook deliveries); an ending actor's timeouts go
// with it, and one stale entry per run or generation costs nothing.
// `response` is the id of the request's response_handle, which is the id the
// clock keeps the timeout under.
inline void forget_timeout(caf::local_actor* self, caf::message_id response) {
  self->clock().cancel_request_timeout(self, response);
}

}  // namespace vouch::actors
