#pragma once

#include "http/router.hpp"
#include "store/events_view.hpp"

namespace vouch::http {

// GET /v1/events?limit=&startingAfter=&type=: the caller's public events in
// log order, the audit trail (docs/architecture.md). REQUIRES: `events` outlives the router.
void add_event_routes(Router& router, const store::EventsView& events);

}  // namespace vouch::http
