#pragma once

#include <chrono>
#include <string>

#include "actors/type_ids.hpp"
#include "events/webhook.hpp"
#include "events/webhook_delivery.hpp"
#include "secrets/webhook_secrets.hpp"
#include "store/deliveries_view.hpp"
#include "store/event_log.hpp"
#include "transport/webhook_client.hpp"

namespace vouch::actors {

struct WebhookActorConfig {
  std::string webhook_id;
  const store::EventLog* log = nullptr;  // streams and events to send; outlives the actors
  const store::DeliveriesView* deliveries = nullptr;
  event_store_actor store;
  webhook_registry_actor registry;             // told when the actor has been idle for idle_after
  transport::WebhookClient* client = nullptr;  // outlives the actors
  // Seals each new secret under a fresh data key, opens them to sign, and
  // destroys the keys of a deleted webhook; outlives the actors.
  secrets::WebhookSecrets* secrets = nullptr;
  events::WebhookRules rules;
  events::RetryPolicy retry;
  std::chrono::milliseconds timeout{15'000};
  std::chrono::milliseconds idle_after{60'000};
};

// Attempts in flight per webhook, and deliveries waiting behind them. Beyond
// the queue, a delivery is recorded as a failed attempt ("backlog") with its
// retry scheduled, so a slow receiver holds neither memory nor the
// dispatcher's cursor.
inline constexpr std::size_t kMaxAttemptsInFlight = 16;
inline constexpr std::size_t kMaxQueuedDeliveries = 1024;

// Spawns the actor of one webhook. Like a project actor it loads its stream
// and runs commands through decide()/evolve() with the stream version it
// holds. It also delivers: it signs each event with the current (and, during
// a rotation, the previous) secret, opened from its sealed form, POSTs it through the client,
// records each attempt as a WebhookDeliveryAttempted event on the delivery's own stream, schedules
// retries, and disables the webhook on 410 or after failing for RetryPolicy::disable_after().
webhook_actor spawn_webhook_actor(caf::actor_system& system, WebhookActorConfig config);

}  // namespace vouch::actors
