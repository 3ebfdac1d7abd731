#pragma once

#include <boost/json/object.hpp>

#include "actors/delivery/webhook_messages.hpp"
#include "events/webhook.hpp"
#include "events/webhook_delivery.hpp"

namespace vouch::http {

// The API's webhook record: {id, url, events, description, active,
// disabledReason (when the service disabled it), created, updated}. The
// secret is never in it: creation and rotation add the plain one they made.
boost::json::object to_json(const events::Webhook& webhook);

// A delivery log entry: {id, eventId, event, url, status, duration, created,
// attempt, success, error, nextAttempt, manual}.
boost::json::object to_json(const events::DeliveryAttempted& attempt);

boost::json::object to_json(const actors::RedeliveryQueued& queued);

}  // namespace vouch::http
