#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/clock.hpp"

// Deliveries of public events to webhooks: what one attempt records, and the
// rules that decide what happens after it (retry schedule, disabling).
//
// A delivery is one event sent to one webhook; its attempts are events of the
// webhook's delivery stream "deliveries-<webhook id>" (internal, never
// public; appended with any version, several attempts per append), so the
// delivery log and the pending retries are a fold over the log and survive a
// crash.
namespace vouch::events {

inline std::string deliveries_stream(std::string_view webhook_id) {
  std::string stream = "deliveries-";
  stream.append(webhook_id);
  return stream;
}

inline std::string webhook_stream(const std::string& id) { return "webhook-" + id; }

// The fact of one attempt (stored as WebhookDeliveryAttempted.v1).
struct DeliveryAttempted {
  std::string delivery_id;  // dlv_…, one per attempt: a log entry
  std::string webhook_id;
  std::string event_id;              // the delivered event (also the webhook-id header)
  std::uint64_t event_position = 0;  // where the event sits in the log, to send it again
  std::string event_type;            // public type, e.g. "project.created"
  std::string url;
  std::uint32_t attempt = 1;  // 1-based within the delivery
  unsigned status = 0;        // HTTP status; 0 when no answer came
  std::int64_t duration = 0;  // ms
  bool success = false;
  std::string error;                         // empty on success
  std::optional<base::Millis> next_attempt;  // when the next automatic attempt is due
  bool manual = false;                       // a redelivery asked for through the API
  base::Millis at = 0;
};

// What the receiver's answer (or its absence) means for the delivery.
enum class AttemptVerdict {
  kDelivered,  // 2xx
  kRetry,      // any other status (3xx is not followed), timeout, connection error: try again
  kFailed,     // not sent at all (the webhook's backlog is full): final for this delivery
  kGone,       // 410: the receiver asks to be disabled
  kRefused,    // the address is not allowed (SSRF policy): final
};

// REQUIRES: status is 0 (no answer) or an HTTP status code.
AttemptVerdict verdict_of(unsigned status, bool refused);

// The retry schedule (docs/decisions.md): after the first attempt fails, the next
// come 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h later (8 attempts in all),
// each multiplied by `scale` and by a jitter factor, and never sooner than
// the receiver's Retry-After.
struct RetryPolicy {
  double scale = 1.0;
  double jitter = 0.2;  // a delay is multiplied by a factor in [1 - jitter, 1 + jitter]
  // A webhook failing without a single success this long is disabled (5 days × scale).
  base::Millis disable_after() const;
  static constexpr std::uint32_t kMaxAttempts = 8;

  // The delay after attempt `attempt` (1-based) failed, or nullopt when it
  // was the last. `unit_random` is in [0, 1) and picks the jitter;
  // `retry_after` is what the receiver asked for (not scaled: it is the
  // receiver's demand, not our schedule), capped at 10 h.
  std::optional<base::Millis> delay_after(
      std::uint32_t attempt, double unit_random,
      std::optional<base::Millis> retry_after = std::nullopt) const;
};

// The base delay (unscaled, without jitter) before attempt `attempt + 1`.
// REQUIRES: 1 <= attempt < RetryPolicy::kMaxAttempts.
base::Millis scheduled_delay(std::uint32_t attempt);

// Parses a Retry-After value: delta-seconds, or an HTTP-date relative to `now`.
std::optional<base::Millis> parse_retry_after(std::string_view value, base::Millis now);

}  // namespace vouch::events
