#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include "events/json_access.hpp"
#include "events/overloaded.hpp"
#include "events/webhook.hpp"

namespace vouch::events {
namespace {

namespace ja = json_access;

boost::json::object webhook_to_json(const Webhook& webhook, bool with_secrets) {
  boost::json::object out{{"id", webhook.id},
                          {"account", webhook.account},
                          {"url", webhook.url},
                          {"events", ja::strings_to_json(webhook.events)},
                          {"description", webhook.description},
                          {"active", webhook.active},
                          {"disabledReason", webhook.disabled_reason},
                          {"created", webhook.created},
                          {"updated", webhook.updated}};
  if (with_secrets) {
    out["secret"] = webhook.secret;
    out["previousSecret"] = webhook.previous_secret;
    out["previousSecretUntil"] = webhook.previous_secret_until;
  }
  return out;
}

Webhook webhook_from_json(const boost::json::object& object) {
  Webhook webhook;
  webhook.id = ja::string_at(object, "id");
  webhook.account = ja::string_at(object, "account");
  webhook.url = ja::string_at(object, "url");
  webhook.events = ja::strings_at(object, "events");
  webhook.description = ja::string_at(object, "description");
  webhook.active = ja::bool_at(object, "active");
  webhook.disabled_reason = ja::string_at(object, "disabledReason");
  webhook.created = ja::int_at(object, "created");
  webhook.updated = ja::int_at(object, "updated");
  webhook.secret = ja::optional_string_at(object, "secret").value_or("");
  webhook.previous_secret = ja::optional_string_at(object, "previousSecret").value_or("");
  if (object.contains("previousSecretUntil")) {
    webhook.previous_secret_until = ja::int_at(object, "previousSecretUntil");
  }
  return webhook;
}

}  // namespace

EncodedEvent encode(const WebhookEvent& event) {
  return std::visit(
      Overloaded{
          [](const WebhookCreated& created) {
            return ja::encoded(kWebhookCreatedV1, webhook_to_json(created.webhook, true));
          },
          [](const WebhookUpdated& updated) {
            boost::json::object data{{"id", updated.id}, {"at", updated.at}};
            if (updated.url) data["url"] = *updated.url;
            if (updated.events) data["events"] = ja::strings_to_json(*updated.events);
            if (updated.description) data["description"] = *updated.description;
            if (updated.active) data["active"] = *updated.active;
            return ja::encoded(kWebhookUpdatedV1, data);
          },
          [](const WebhookDeleted& deleted) {
            boost::json::object data{{"id", deleted.id}, {"at", deleted.at}};
            return ja::encoded(kWebhookDeletedV1, data);
          },
          [](const WebhookSecretRotated& rotated) {
            boost::json::object data{{"id", rotated.id},
                                     {"secret", rotated.secret},
                                     {"previousSecret", rotated.previous_secret},
                                     {"previousSecretUntil", rotated.previous_secret_until},
                                     {"at", rotated.at}};
            return ja::encoded(kWebhookSecretRotatedV1, data);
          },
          [](const WebhookDisabled& disabled) {
            boost::json::object data{
                {"id", disabled.id}, {"reason", disabled.reason}, {"at", disabled.at}};
            return ja::encoded(kWebhookDisabledV1, data);
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
          WebhookUpdated updated;
          updated.id = ja::string_at(object, "id");
          updated.url = ja::optional_string_at(object, "url");
          if (object.contains("events")) updated.events = ja::strings_at(object, "events");
          updated.description = ja::optional_string_at(object, "description");
          updated.active = ja::optional_bool_at(object, "active");
          updated.at = ja::int_at(object, "at");
          return WebhookEvent{std::move(updated)};
        }
        if (type == kWebhookDeletedV1) {
          return WebhookEvent{
              WebhookDeleted{ja::string_at(object, "id"), ja::int_at(object, "at")}};
        }
        if (type == kWebhookSecretRotatedV1) {
          return WebhookEvent{WebhookSecretRotated{
              ja::string_at(object, "id"), ja::string_at(object, "secret"),
              ja::string_at(object, "previousSecret"), ja::int_at(object, "previousSecretUntil"),
              ja::int_at(object, "at")}};
        }
        if (type == kWebhookDisabledV1) {
          return WebhookEvent{WebhookDisabled{ja::string_at(object, "id"),
                                              ja::string_at(object, "reason"),
                                              ja::int_at(object, "at")}};
        }
        return Error::internal("not a webhook event: " + std::string(type));
      });
}

EncodedEvent encode(const DeliveryAttempted& event) {
  boost::json::object data{{"delivery", event.delivery_id},
                           {"webhook", event.webhook_id},
                           {"eventId", event.event_id},
                           {"eventPosition", event.event_position},
                           {"event", event.event_type},
                           {"url", event.url},
                           {"attempt", event.attempt},
                           {"status", event.status},
                           {"duration", event.duration},
                           {"success", event.success},
                           {"error", event.error},
                           {"manual", event.manual},
                           {"at", event.at}};
  if (event.next_attempt) data["nextAttempt"] = *event.next_attempt;
  return ja::encoded(kWebhookDeliveryAttemptedV1, data);
}

Result<DeliveryAttempted> decode_delivery_attempted(std::string_view data) {
  return ja::read_stored<DeliveryAttempted>(
      data, "delivery attempt",
      [&](const boost::json::object& object) -> Result<DeliveryAttempted> {
        DeliveryAttempted event;
        event.delivery_id = ja::string_at(object, "delivery");
        event.webhook_id = ja::string_at(object, "webhook");
        event.event_id = ja::string_at(object, "eventId");
        event.event_position = static_cast<std::uint64_t>(ja::int_at(object, "eventPosition"));
        event.event_type = ja::string_at(object, "event");
        event.url = ja::string_at(object, "url");
        event.attempt = static_cast<std::uint32_t>(ja::int_at(object, "attempt"));
        event.status = static_cast<unsigned>(ja::int_at(object, "status"));
        event.duration = ja::int_at(object, "duration");
        event.success = ja::bool_at(object, "success");
        event.error = ja::string_at(object, "error");
        event.manual = ja::bool_at(object, "manual");
        event.at = ja::int_at(object, "at");
        if (object.contains("nextAttempt")) event.next_attempt = ja::int_at(object, "nextAttempt");
        return event;
      });
}

std::string encode_webhook_record(const Webhook& webhook) {
  return boost::json::serialize(webhook_to_json(webhook, false));
}

Result<Webhook> decode_webhook_record(std::string_view text) {
  return ja::read_stored<Webhook>(text, "webhook record", webhook_from_json);
}

}  // namespace vouch::events
