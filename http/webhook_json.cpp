#include "http/webhook_json.hpp"

#include <boost/json/array.hpp>

#include "base/clock.hpp"

namespace vouch::http {

boost::json::object to_json(const events::Webhook& webhook) {
  boost::json::array patterns;
  for (const auto& pattern : webhook.events) patterns.emplace_back(pattern);
  boost::json::object out{{"id", webhook.id},
                          {"url", webhook.url},
                          {"events", std::move(patterns)},
                          {"description", webhook.description},
                          {"active", webhook.active},
                          {"created", base::format_timestamp(webhook.created)},
                          {"updated", base::format_timestamp(webhook.updated)}};
  if (!webhook.disabled_reason.empty()) out["disabledReason"] = webhook.disabled_reason;
  return out;
}

boost::json::object to_json(const events::DeliveryAttempted& attempt) {
  boost::json::object out{{"id", attempt.delivery_id},
                          {"eventId", attempt.event_id},
                          {"event", attempt.event_type},
                          {"url", attempt.url},
                          {"status", attempt.status},
                          {"duration", attempt.duration},
                          {"created", base::format_timestamp(attempt.at)},
                          {"attempt", attempt.attempt},
                          {"success", attempt.success},
                          {"manual", attempt.manual}};
  if (attempt.error.empty()) {
    out["error"] = nullptr;
  } else {
    out["error"] = attempt.error;
  }
  if (attempt.next_attempt) {
    out["nextAttempt"] = base::format_timestamp(*attempt.next_attempt);
  } else {
    out["nextAttempt"] = nullptr;
  }
  return out;
}

boost::json::object to_json(const actors::RedeliveryQueued& queued) {
  return {{"webhookId", queued.webhook_id},
          {"eventId", queued.event_id},
          {"event", queued.event_type},
          {"attempt", queued.attempt},
          {"status", "queued"}};
}

}  // namespace vouch::http
