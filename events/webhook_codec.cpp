#include "events/json_access.hpp"
#include "events/json_fields.hpp"
#include "events/owned_resource_codec.hpp"
#include "events/sealed_secret.hpp"
#include "events/stored_events.hpp"
#include "events/webhook.hpp"

namespace vouch::events {
namespace {

namespace ja = json_access;

// The webhook record: no secrets.
constexpr auto kWebhookFields = std::make_tuple(
    ja::field("id", &Webhook::id), ja::field("account", &Webhook::account),
    ja::field("url", &Webhook::url), ja::field("events", &Webhook::events),
    ja::field("description", &Webhook::description), ja::field("active", &Webhook::active),
    ja::field("disabledReason", &Webhook::disabled_reason), ja::field("created", &Webhook::created),
    ja::field("updated", &Webhook::updated));

// A sealed secret, as an object {"key", "sealed"}.
constexpr auto kSealedForm = [](const SealedSecret& secret) -> boost::json::value {
  return sealed_secret_to_json(secret);
};
constexpr auto kSealedRead = [](const boost::json::object& object, std::string_view key) {
  return sealed_secret_at(object, key);
};

// The webhook of WebhookCreated.v2: the record and its sealed secret.
constexpr auto kWebhookWithSecretFields = std::tuple_cat(
    kWebhookFields,
    std::make_tuple(ja::field("secret", &Webhook::secret, kSealedForm, kSealedRead)));

// What WebhookUpdated changed: only the fields present are stored.
constexpr auto kWebhookChangesFields = std::make_tuple(
    ja::field("url", &WebhookChanges::url), ja::field("events", &WebhookChanges::events),
    ja::field("description", &WebhookChanges::description),
    ja::field("active", &WebhookChanges::active));

// How each webhook event is stored; an update names only what changed.
constexpr auto kWebhookEvents = std::make_tuple(
    ja::stored_event<WebhookCreated>(
        kWebhookCreatedV2,
        std::make_tuple(ja::inline_fields(&WebhookCreated::webhook, kWebhookWithSecretFields))),
    ja::stored_event<WebhookUpdated>(kWebhookUpdatedV1,
                                     ja::updated_fields<WebhookChanges>(kWebhookChangesFields)),
    ja::stored_event<WebhookDeleted>(kWebhookDeletedV1, ja::deleted_fields<Webhook>()),
    ja::stored_event<WebhookSecretRotated>(
        kWebhookSecretRotatedV2,
        std::make_tuple(
            ja::field("id", &WebhookSecretRotated::id),
            ja::field("secret", &WebhookSecretRotated::secret, kSealedForm, kSealedRead),
            ja::field("previousSecretUntil", &WebhookSecretRotated::previous_secret_until),
            ja::field("at", &WebhookSecretRotated::at))),
    ja::stored_event<WebhookDisabled>(kWebhookDisabledV1,
                                      std::make_tuple(ja::field("id", &WebhookDisabled::id),
                                                      ja::field("reason", &WebhookDisabled::reason),
                                                      ja::field("at", &WebhookDisabled::at))));

// Version 1 of the two events that held plain secrets, read without them
// (their secrets stay empty: nothing signs with a secret that was never sealed).
constexpr auto kPlainSecretEvents = std::make_tuple(
    ja::stored_event<WebhookCreated>(
        kWebhookCreatedV1,
        std::make_tuple(ja::inline_fields(&WebhookCreated::webhook, kWebhookFields))),
    ja::stored_event<WebhookSecretRotated>(
        kWebhookSecretRotatedV1,
        std::make_tuple(
            ja::field("id", &WebhookSecretRotated::id),
            ja::field("previousSecretUntil", &WebhookSecretRotated::previous_secret_until),
            ja::field("at", &WebhookSecretRotated::at))));

}  // namespace

EncodedEvent encode(const WebhookEvent& event) { return ja::encode_event(event, kWebhookEvents); }

bool is_webhook_event(std::string_view type) {
  return ja::is_stored_event(type, kWebhookEvents) || ja::is_stored_event(type, kPlainSecretEvents);
}

base::Result<WebhookEvent> decode_webhook_event(std::string_view type, std::string_view data) {
  if (ja::is_stored_event(type, kPlainSecretEvents)) {
    return ja::decode_event<WebhookEvent>(type, data, "a webhook event", kPlainSecretEvents);
  }
  return ja::decode_event<WebhookEvent>(type, data, "a webhook event", kWebhookEvents);
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

base::Result<DeliveryAttempted> decode_delivery_attempted(std::string_view data) {
  return ja::parse<DeliveryAttempted>(data, "delivery attempt", kDeliveryAttemptedFields);
}

std::string encode_webhook_record(const Webhook& webhook) {
  return ja::serialize(webhook, kWebhookFields);
}

base::Result<Webhook> decode_webhook_record(std::string_view text) {
  return ja::parse<Webhook>(text, "webhook record", kWebhookFields);
}

}  // namespace vouch::events
