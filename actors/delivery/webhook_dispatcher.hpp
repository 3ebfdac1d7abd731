#pragma once

#include "actors/type_ids.hpp"
#include "store/database.hpp"
#include "store/deliveries_view.hpp"
#include "store/event_log.hpp"
#include "store/webhooks_view.hpp"

namespace vouch::actors {

struct WebhookDispatcherConfig {
  const store::EventLog* log = nullptr;  // all of these outlive the actor system
  const store::WebhooksView* webhooks = nullptr;
  const store::DeliveriesView* deliveries = nullptr;
  store::Database* database = nullptr;  // holds the dispatcher's cursor
  webhook_registry_actor registry;
};

// Deliveries handed to webhook actors whose first attempt is not yet
// recorded; beyond this the dispatcher stops reading the log until some are.
inline constexpr std::size_t kMaxUnrecordedDeliveries = 8192;

// Spawns the dispatcher: it follows the log from its stored cursor and hands
// each public event (public_type_of(type) set) to the actor of every active
// webhook of the event's account whose patterns match and which existed
// before the event. Its cursor advances past an event once every first
// attempt of it is recorded, so after a crash the events after the cursor are
// handed over again (webhook actors skip those already attempted): at least
// once. On start it also reschedules the pending retries of the read model.
webhook_dispatcher_actor spawn_webhook_dispatcher(caf::actor_system& system,
                                                  WebhookDispatcherConfig config);

}  // namespace vouch::actors
