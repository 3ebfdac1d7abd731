#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "actors/webhook_client.hpp"
#include "events/clock.hpp"
#include "events/event_record.hpp"

// Settings, commands and replies of webhook delivery that are not the webhook
// aggregate's own (those live in events/webhook.hpp). Plain structs: no CAF.
namespace vouch::actors {

// The server's webhook settings (DESIGN §7).
struct WebhookSettings {
  std::vector<Cidr> allow_cidrs;  // --webhook-allow-cidr
  bool allow_http = false;        // --webhook-allow-http
  double retry_scale = 1.0;       // --webhook-retry-scale
  std::chrono::milliseconds timeout{15'000};  // --webhook-timeout
  std::string ca_file;                        // --webhook-ca
};

// From the dispatcher: send this public event to one webhook.
struct DeliverEvent {
  std::string webhook_id;
  std::string public_type;  // e.g. "project.created"
  events::RecordedEvent record;
};

// A retry that is due at `due` (from a webhook actor's own timer, or
// rescheduled after a restart from the pending retries of the read model).
struct RetryDelivery {
  std::string webhook_id;
  std::string event_id;
  std::uint64_t event_position = 0;
  std::uint32_t attempt = 2;  // the attempt to make
  events::Millis due = 0;
  bool from_timer = false;  // the webhook actor's own timer fired
};

// POST /v1/webhooks/{id}/deliveries/{deliveryId}/redeliver
struct RedeliverWebhook {
  std::string webhook_id;
  std::string delivery_id;
  std::string account;
};

struct RedeliveryQueued {
  std::string webhook_id;
  std::string event_id;
  std::string event_type;
  std::uint32_t attempt = 0;
};

// The client's answer to one attempt, back inside the webhook actor.
struct AttemptFinished {
  std::uint64_t ticket = 0;
  OutboundResult result;
};

}  // namespace vouch::actors
