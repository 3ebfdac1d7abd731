#pragma once

#include <string>
#include <string_view>

#include "events/encoded_event.hpp"
#include "events/result.hpp"
#include "events/webhook.hpp"
#include "events/webhook_delivery.hpp"

// Stored form of webhook and delivery events (internal, never public) and of
// the records the read models keep.
namespace vouch::events {

inline constexpr std::string_view kWebhookCreatedV1 = "WebhookCreated.v1";
inline constexpr std::string_view kWebhookUpdatedV1 = "WebhookUpdated.v1";
inline constexpr std::string_view kWebhookDeletedV1 = "WebhookDeleted.v1";
inline constexpr std::string_view kWebhookSecretRotatedV1 = "WebhookSecretRotated.v1";
inline constexpr std::string_view kWebhookDisabledV1 = "WebhookDisabled.v1";
inline constexpr std::string_view kWebhookDeliveryAttemptedV1 = "WebhookDeliveryAttempted.v1";

EncodedEvent encode(const WebhookEvent& event);
bool is_webhook_event(std::string_view type);
// REQUIRES: is_webhook_event(type). kInternal when the data is corrupt.
Result<WebhookEvent> decode_webhook_event(std::string_view type, std::string_view data);

EncodedEvent encode(const DeliveryAttempted& event);
// kInternal when the data is corrupt.
Result<DeliveryAttempted> decode_delivery_attempted(std::string_view data);

// The webhook record as the read model keeps it: everything but the secrets.
std::string encode_webhook_record(const Webhook& webhook);
Result<Webhook> decode_webhook_record(std::string_view text);

}  // namespace vouch::events
