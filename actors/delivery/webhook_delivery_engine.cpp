// The delivery engine of a webhook's actor: attempts queued and in flight
// through the webhook client, each recorded as an event (in batches, one
// append in flight), and what follows once it is durable: the dispatcher's
// ack, the retry timer, disabling a webhook that keeps failing.
#include <algorithm>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include "actors/domain/append_request.hpp"
#include "actors/domain/webhook_actor_state.hpp"
#include "actors/errors.hpp"
#include "actors/timeouts.hpp"
#include "base/ids.hpp"
#include "events/public_types.hpp"
#include "events/webhook.hpp"
#include "events/webhook_signature.hpp"
#include "log/log.hpp"

namespace vouch::actors::webhook_detail {

std::string describe_status(unsigned status) {
  if (status >= 300 && status < 400) {
    return "the receiver answered " + std::to_string(status) + " (redirects are not followed)";
  }
  if (status == 410) return "the receiver answered 410 Gone; the webhook is disabled";
  return "the receiver answered " + std::to_string(status);
}

// What follows from an attempt once it is durable: the ack to the
// dispatcher, the retry, disabling.
void after_recorded(Self self, Unrecorded& done) {
  auto& state = self->state;
  const auto& attempt = done.attempt;
  if (done.ack) done.ack->recorded();
  if (attempt.success) {
    state.failing_since.reset();
  } else if (!state.failing_since) {
    state.failing_since = attempt.at;
  }
  if (done.delay) {
    ++state.timers;
    self->delayed_send(self, std::chrono::milliseconds(*done.delay),
                       RetryDelivery{attempt.webhook_id, attempt.event_id, attempt.event_position,
                                     attempt.attempt + 1, *attempt.next_attempt, true});
  }
  if (done.verdict == events::AttemptVerdict::kGone) {
    disable(self, "the receiver answered 410 Gone");
  } else if (!attempt.success && state.failing_since &&
             attempt.at - *state.failing_since >= state.config.retry.disable_after()) {
    disable(self, "deliveries failed for " +
                      std::to_string(state.config.retry.disable_after() / 1000) +
                      " s without a success");
  }
}

// Appends every attempt waiting to be recorded, as events of the webhook's
// delivery stream in one append, unless an append is in flight (its answer
// flushes again).
void flush_records(Self self) {
  auto& state = self->state;
  if (state.append_in_flight || state.unrecorded.empty()) return;
  state.appending = std::move(state.unrecorded);
  state.unrecorded.clear();
  store::AppendRequest request{
      events::deliveries_stream(state.config.webhook_id), store::kAnyVersion, {}};
  request.events.reserve(state.appending.size());
  const std::string account = state.webhook.webhook ? state.webhook.webhook->account : "";
  for (const auto& waiting : state.appending) {
    add_event(request, waiting.attempt, account, waiting.attempt.at);
  }
  state.append_in_flight = true;
  auto append =
      self->request(state.config.store, kAppendTimeout, append_atom_v, std::move(request));
  append.then(
      [self, id = append.id()](const store::AppendResult&) {
        forget_timeout(self, id);
        auto& state = self->state;
        auto done = std::move(state.appending);
        state.appending.clear();
        state.append_in_flight = false;
        for (auto& attempt : done) after_recorded(self, attempt);
        flush_records(self);
      },
      [self, id = append.id()](caf::error& error) {
        forget_timeout(self, id);
        auto& state = self->state;
        auto lost = std::move(state.appending);
        state.appending.clear();
        state.append_in_flight = false;
        log::error("webhooks",
                   "could not record " + std::to_string(lost.size()) +
                       " delivery attempts: " + caf::to_string(error),
                   {{"webhookId", self->state.config.webhook_id}});
        for (auto& attempt : lost) {
          if (attempt.ack) attempt.ack->failed(error);
        }
        flush_records(self);
      });
}

void record(Self self, Send send, const transport::OutboundResult& result, bool sent,
            bool retry_unsent) {
  auto& state = self->state;
  const auto now = base::now_millis();
  const auto verdict =
      sent ? events::verdict_of(result.status, result.refused) : events::AttemptVerdict::kFailed;
  events::DeliveryAttempted attempt;
  attempt.delivery_id = base::new_time_ordered_id(base::kDeliveryIdPrefix);
  attempt.webhook_id = state.config.webhook_id;
  attempt.event_id = send.event_id;
  attempt.event_position = send.event_position;
  attempt.event_type = send.event_type;
  attempt.url = state.webhook.webhook ? state.webhook.webhook->url : "";
  attempt.attempt = send.attempt;
  attempt.status = result.status;
  attempt.duration = result.duration.count();
  attempt.success = verdict == events::AttemptVerdict::kDelivered;
  attempt.manual = send.manual;
  attempt.at = now;
  if (!attempt.success) {
    attempt.error = result.error.empty() ? describe_status(result.status) : result.error;
  }
  const bool backlog = !sent && retry_unsent;
  std::optional<base::Millis> delay;
  if ((verdict == events::AttemptVerdict::kRetry || backlog) && !send.manual) {
    std::optional<base::Millis> retry_after;
    if (result.retry_after && !backlog) {
      retry_after = events::parse_retry_after(*result.retry_after, now);
    }
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    delay = state.config.retry.delay_after(send.attempt, unit(state.random), retry_after);
    if (delay) attempt.next_attempt = now + *delay;
  }

  state.unrecorded.push_back({std::move(attempt), delay, verdict, std::move(send.ack)});
  flush_records(self);
}

// The plain secrets an attempt at `now` is signed with, opened from their
// sealed forms once and then kept in the actor's memory. The data key of a
// previous secret whose overlap has passed is destroyed on the way.
base::Result<std::vector<std::string>> plain_signing_secrets(Self self, base::Millis now) {
  auto& state = self->state;
  const auto& webhook = *state.webhook.webhook;
  const auto& previous = webhook.previous_secret;
  if (!previous.empty() && now >= webhook.previous_secret_until &&
      state.retired_key != previous.key_id) {
    state.retired_key = previous.key_id;
    destroy_keys(self, {previous.key_id});
  }
  std::vector<std::string> plain;
  decltype(state.opened) opened;
  for (const auto& sealed : events::signing_secrets(webhook, now)) {
    auto kept = std::find_if(state.opened.begin(), state.opened.end(),
                             [&](const auto& entry) { return entry.first == sealed.key_id; });
    if (kept != state.opened.end()) {
      opened.push_back(*kept);
    } else {
      auto secret = state.config.secrets->open(webhook.id, sealed);
      if (!secret) return std::move(secret).error();
      opened.emplace_back(sealed.key_id, std::move(secret).value());
    }
    plain.push_back(opened.back().second);
  }
  state.opened = std::move(opened);
  return plain;
}

// Signs and sends one attempt through the client.
void start(Self self, Send send) {
  auto& state = self->state;
  if (!accepting(state)) {
    transport::OutboundResult result;
    result.error = state.webhook.deleted ? "not sent: the webhook was deleted"
                                         : "not sent: the webhook is inactive";
    return record(self, std::move(send), result, false);
  }
  const auto& webhook = *state.webhook.webhook;
  const auto now = base::now_millis();
  const std::int64_t timestamp = now / 1000;
  auto opened = plain_signing_secrets(self, now);
  if (!opened) {
    log::error("webhooks", "cannot open the signing secret: " + opened.error().message,
               {{"webhookId", state.config.webhook_id}});
    transport::OutboundResult result;
    result.error = "not sent: the signing secret cannot be opened (" + opened.error().message + ")";
    return record(self, std::move(send), result, false);
  }
  const auto& secrets = *opened;
  std::string standard;
  for (const auto& secret : secrets) {
    if (auto signature = events::standard_signature(secret, send.event_id, timestamp, *send.body)) {
      if (!standard.empty()) standard.push_back(' ');
      standard += *signature;
    }
  }
  transport::OutboundRequest request;
  request.url = webhook.url;
  request.timeout = state.config.timeout;
  request.body = *send.body;
  const std::string ts = std::to_string(timestamp);
  request.headers = {
      {"content-type", "application/json"},
      {"webhook-id", send.event_id},
      {"webhook-timestamp", ts},
      {"webhook-signature", standard},
      {"x-service-timestamp", ts},
      {"x-service-signature", events::service_signature(secrets.front(), timestamp, *send.body)}};
  if (secrets.size() > 1) {
    request.headers.emplace_back("x-service-signature-previous",
                                 events::service_signature(secrets[1], timestamp, *send.body));
  }
  const auto ticket = state.next_ticket++;
  state.in_flight.emplace(ticket, std::move(send));
  state.config.client->post(
      std::move(request), [handle = webhook_actor{self}, ticket](transport::OutboundResult result) {
        caf::anon_send(handle, AttemptFinished{ticket, std::move(result)});
      });
}

void start_next(Self self) {
  auto& state = self->state;
  while (!state.queue.empty() && state.in_flight.size() < kMaxAttemptsInFlight) {
    Send next = std::move(state.queue.front());
    state.queue.pop_front();
    start(self, std::move(next));
  }
}

void enqueue(Self self, Send send) {
  auto& state = self->state;
  if (state.in_flight.size() < kMaxAttemptsInFlight) return start(self, std::move(send));
  if (state.queue.size() < kMaxQueuedDeliveries) {
    state.queue.push_back(std::move(send));
    return;
  }
  // Recorded as an attempt that was not made, with a retry on the schedule.
  transport::OutboundResult result;
  result.error = "not sent: " + std::to_string(state.queue.size()) +
                 " deliveries to this webhook are already waiting";
  record(self, std::move(send), result, false, true);
}

base::Result<events::RecordedEvent> event_at(const store::EventLog& log, std::uint64_t position,
                                             const std::string& event_id) {
  auto page = log.read_all(position, 1);
  if (!page) return std::move(page).error();
  if (page->empty() || page->front().event.id != event_id) {
    return base::Error::internal("event " + event_id + " is not at position " +
                                 std::to_string(position));
  }
  return std::move(page->front());
}

}  // namespace vouch::actors::webhook_detail
