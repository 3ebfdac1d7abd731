#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include "events/json_access.hpp"
#include "events/json_fields.hpp"
#include "events/overloaded.hpp"
#include "events/webhook.hpp"

namespace vouch::events {
namespace {

namespace ja = json_access;

// The webhook record (no secrets), and the webhook of WebhookCreated with them.
constexpr auto kWebhookFields = std::make_tuple(
    ja::field("id", &Webhook::id), ja::field("account", &Webhook::account),
    ja::field("url", &Webhook::url), ja::field("events", &Webhook::events),
    ja::field("description", &Webhook::description), ja::field("active", &Webhook::active),
    ja::field("disabledReason", &Webhook::disabled_reason), ja::field("created", &Webhook::created),
    ja::field("updated", &Webhook::updated));

boost::json::object webhook_to_json(const Webhook& webhook, bool with_secrets) {
  auto out = ja::to_json(webhook, kWebhookFields);
  if (with_secrets) {
    out["secret"] = webhook.secret;
    out["previousSecret"] = webhook.previous_secret;
    out["previousSecretUntil"] = webhook.previous_secret_until;
  }
  return out;
}

Webhook webhook_from_json(const boost::json::object& object) {
  auto webhook = ja::from_json<Webhook>(object, kWebhookFields);
  webhook.secret = ja::optional_string_at(object, "secret").value_or("");
  webhook.previous_secret = ja::optional_string_at(object, "previousSecret").value_or("");
  if (object.contains("previousSecretUntil")) {
    webhook.previous_secret_until = ja::int_at(object, "previousSecretUntil");
  }
  return webhook;
}

// The data of the other webhook events; an update names only what changed.
constexpr auto kWebhookUpdatedFields = std::make_tuple(
    ja::field("id", &WebhookUpdated::id), ja::field("at", &WebhookUpdated::at),
    ja::field("url", &WebhookUpdated::url), ja::field("events", &WebhookUpdated::events),
    ja::field("description", &WebhookUpdated::description),
    ja::field("active", &WebhookUpdated::active));
constexpr auto kWebhookDeletedFields =
    std::make_tuple(ja::field("id", &WebhookDeleted::id), ja::field("at", &WebhookDeleted::at));
constexpr auto kWebhookSecretRotatedFields = std::make_tuple(
    ja::field("id", &WebhookSecretRotated::id), ja::field("secret", &WebhookSecretRotated::secret),
    ja::field("previousSecret", &WebhookSecretRotated::previous_secret),
    ja::field("previousSecretUntil", &WebhookSecretRotated::previous_secret_until),
    ja::field("at", &WebhookSecretRotated::at));
constexpr auto kWebhookDisabledFields = std::make_tuple(
    ja::field("id", &WebhookDisabled::id), ja::field("reason", &WebhookDisabled::reason),
    ja::field("at", &WebhookDisabled::at));

}  // namespace

EncodedEvent encode(const WebhookEvent& event) {
  return std::visit(
      Overloaded{
          [](const WebhookCreated& created) {
            return ja::encoded(kWebhookCreatedV1, webhook_to_json(created.webhook, true));
          },
          [](const WebhookUpdated& updated) {
            return ja::encoded(kWebhookUpdatedV1, ja::to_json(updated, kWebhookUpdatedFields));
          },
          [](const WebhookDeleted& deleted) {
            return ja::encoded(kWebhookDeletedV1, ja::to_json(deleted, kWebhookDeletedFields));
          },
          [](const WebhookSecretRotated& rotated) {
            return ja::encoded(kWebhookSecretRotatedV1,
                               ja::to_json(rotated, kWebhookSecretRotatedFields));
          },
          [](const WebhookDisabled& disabled) {
            return ja::encoded(kWebhookDisabledV1, ja::to_json(disabled, kWebhookDisabledFields));
          },
      },
      event);
}

bool is_webhook_event(std::string_view type) {
  return type == kWebhookCreatedV1 || type == kWebhookUpdatedV1 || type == kWebhookDeletedV1 ||
         type == kWebhookSecretRotatedV1 || type == kWebhookDisabledV1;
}

Result<WebhookEvent> decode_webhook_event(std::string_view type, std::string_view data) {
  return ja::read_stored<WebhookEvent>(
      data, std::string(type) + " event",
      [&](const boost::json::object& object) -> Result<WebhookEvent> {
        if (type == kWebhookCreatedV1)
          return WebhookEvent{WebhookCreated{webhook_from_json(object)}};
        if (type == kWebhookUpdatedV1) {
          return WebhookEvent{ja::from_json<WebhookUpdated>(object, kWebhookUpdatedFields)};
        }
        if (type == kWebhookDeletedV1) {
          return WebhookEvent{ja::from_json<WebhookDeleted>(object, kWebhookDeletedFields)};
        }
        if (type == kWebhookSecretRotatedV1) {
          return WebhookEvent{
              ja::from_json<WebhookSecretRotated>(object, kWebhookSecretRotatedFields)};
        }
        if (type == kWebhookDisabledV1) {
          return WebhookEvent{ja::from_json<WebhookDisabled>(object, kWebhookDisabledFields)};
        }
        return Error::internal("not a webhook event: " + std::string(type));
      });
}

// WebhookDeliveryAttempted's data; "nextAttempt" only when one is due.
constexpr auto kDeliveryAttemptedFields = std::make_tuple(
    ja::field("delivery", &DeliveryAttempted::delivery_id),
    ja::field("webhook", &DeliveryAttempted::webhook_id),
    ja::field("eventId", &DeliveryAttempted::event_id),
    ja::field("eventPosition", &DeliveryAttempted::event_position),
    ja::field("event", &DeliveryAttempted::event_type), ja::field("url", &DeliveryAttempted::url),
    ja::field("attempt", &DeliveryAttempted::attempt),
    ja::field("status", &DeliveryAttempted::status),
    ja::field("duration", &DeliveryAttempted::duration),
    ja::field("success", &DeliveryAttempted::success),
    ja::field("error", &DeliveryAttempted::error), ja::field("manual", &DeliveryAttempted::manual),
    ja::field("at", &DeliveryAttempted::at),
    ja::field("nextAttempt", &DeliveryAttempted::next_attempt));

EncodedEvent encode(const DeliveryAttempted& event) {
  return ja::encoded(kWebhookDeliveryAttemptedV1, ja::to_json(event, kDeliveryAttemptedFields));
}

Result<DeliveryAttempted> decode_delivery_attempted(std::string_view data) {
  return ja::read_stored<DeliveryAttempted>(
      data, "delivery attempt", [](const boost::json::object& object) {
        return ja::from_json<DeliveryAttempted>(object, kDeliveryAttemptedFields);
      });
}

std::string encode_webhook_record(const Webhook& webhook) {
  return boost::json::serialize(webhook_to_json(webhook, false));
}

Result<Webhook> decode_webhook_record(std::string_view text) {
  return ja::read_stored<Webhook>(text, "webhook record", webhook_from_json);
}

}  // namespace vouch::events
