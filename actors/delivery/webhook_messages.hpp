#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/clock.hpp"
#include "events/event_record.hpp"
#include "transport/webhook_client.hpp"

// Settings, commands and replies of webhook delivery that are not the webhook
// aggregate's own (those live in events/webhook.hpp). Plain structs: no CAF.
namespace vouch::actors {

// The server's webhook settings (vouchd serve's --webhook-* flags).
struct WebhookSettings {
  std::vector<transport::Cidr> allow_cidrs;   // --webhook-allow-cidr
  bool allow_http = false;                    // --webhook-allow-http
  double retry_scale = 1.0;                   // --webhook-retry-scale
  std::chrono::milliseconds timeout{15'000};  // --webhook-timeout
  std::string ca_file;                        // --webhook-ca
};

// One public event to send to a webhook. The body is built once per event
// and shared by every webhook it goes to.
struct Delivery {
  std::string event_id;
  std::uint64_t event_position = 0;
  std::string public_type;                  // e.g. "project.created"
  std::shared_ptr<const std::string> body;  // {id, type, version, created, data}, as signed
  // The event may have been attempted already (handed over again after a
  // restart or after a failed hand-over): the webhook actor checks the read
  // model and skips it when it was.
  bool check_attempted = false;
};

// From the dispatcher: send these public events (in log order) to one
// webhook. Answered once the first attempt of every one of them is recorded.
struct DeliverEvents {
  std::string webhook_id;
  std::vector<Delivery> deliveries;
};

// A retry that is due at `due` (from a webhook actor's own timer, or
// rescheduled after a restart from the pending retries of the read model).
struct RetryDelivery {
  std::string webhook_id;
  std::string event_id;
  std::uint64_t event_position = 0;
  std::uint32_t attempt = 2;  // the attempt to make
  base::Millis due = 0;
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
  transport::OutboundResult result;
};

}  // namespace vouch::actors
