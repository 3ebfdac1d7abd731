#include "actors/webhook_actor.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <deque>
#include <iostream>
#include <random>
#include <unordered_map>

#include "actors/errors.hpp"
#include "actors/timeouts.hpp"
#include "events/ids.hpp"
#include "events/public_types.hpp"
#include "events/webhook_codec.hpp"
#include "events/webhook_signature.hpp"
#include "log/log.hpp"

namespace vouch::actors {
namespace {

using Clock = std::chrono::steady_clock;

// The answer to one DeliverEvents: given once the first attempt of each of
// its deliveries is recorded, or at the first failure to record one.
struct BatchAck {
  caf::typed_response_promise<bool> promise;
  std::size_t remaining = 0;
  bool answered = false;

  void recorded() {
    if (answered || --remaining != 0) return;
    answered = true;
    promise.deliver(true);
  }
  void failed(const caf::error& error) {
    if (answered) return;
    answered = true;
    promise.deliver(error);
  }
};

// One attempt, waiting or in flight.
struct Send {
  std::string event_id;
  std::uint64_t event_position = 0;
  std::string event_type;
  std::shared_ptr<const std::string> body;
  std::uint32_t attempt = 1;
  bool manual = false;
  std::shared_ptr<BatchAck> ack;  // set on a first attempt: the dispatcher waits for it
};

// An attempt made, waiting for its event to be durable, and what follows
// from it once it is.
struct Unrecorded {
  events::DeliveryAttempted attempt;
  std::optional<events::Millis> delay;  // to the next attempt
  events::AttemptVerdict verdict = events::AttemptVerdict::kFailed;
  std::shared_ptr<BatchAck> ack;
};

struct WebhookActorState {
  WebhookActorConfig config;
  events::WebhookState webhook;
  std::uint64_t version = 0;
  std::optional<events::Error> load_error;

  std::deque<Send> queue;
  std::unordered_map<std::uint64_t, Send> in_flight;
  std::uint64_t next_ticket = 1;
  // Attempts are recorded in batches: at most one append in flight, and the
  // attempts finished meanwhile wait for it and then go in one append.
  std::vector<Unrecorded> unrecorded;  // waiting for the next append
  std::vector<Unrecorded> appending;   // in the append in flight
  bool append_in_flight = false;
  std::size_t timers = 0;  // retries scheduled
  std::optional<events::Millis> failing_since;
  std::mt19937_64 random{std::random_device{}()};
  Clock::time_point last_active = Clock::now();
  bool stopping = false;  // the registry forgot this actor; quit once nothing is left
  static inline const char* name = "vouch.webhook";
};

using Self = webhook_actor::stateful_pointer<WebhookActorState>;

void load(Self self) {
  auto& state = self->state;
  auto stream = state.config.log->read_stream(events::webhook_stream(state.config.webhook_id));
  if (!stream) {
    state.load_error = std::move(stream).error();
    return;
  }
  for (const auto& record : *stream) {
    auto event = events::decode_webhook_event(record.event.type, record.event.data);
    if (!event) {
      state.load_error = std::move(event).error();
      return;
    }
    state.webhook = events::evolve(std::move(state.webhook), *event);
    state.version = record.version;
  }
  auto failing = state.config.deliveries->failing_since(state.config.webhook_id);
  if (failing) state.failing_since = *failing;
}

bool accepting(const WebhookActorState& state) {
  return state.webhook.webhook && !state.webhook.deleted && state.webhook.webhook->active;
}

// Appends the events a command decided and folds them; the reply carries the
// whole webhook (the handler decides whether the secret is shown).
void commit(Self self, const std::vector<events::WebhookEvent>& decided, const std::string& account,
            events::Millis at, std::function<void(caf::error)> failed,
            std::function<void()> succeeded) {
  auto& state = self->state;
  store::AppendRequest request{events::webhook_stream(state.config.webhook_id), state.version, {}};
  for (const auto& event : decided) {
    auto encoded = events::encode(event);
    request.events.push_back({events::new_time_ordered_id(events::kEventIdPrefix),
                              std::move(encoded.type), account, at, std::move(encoded.data)});
  }
  // await: no other command of this webhook runs until the append is durable.
  self->request(state.config.store, kAppendTimeout, append_atom_v, std::move(request))
      .await(
          [self, decided, succeeded](const store::AppendResult& result) {
            for (const auto& event : decided) {
              self->state.webhook = events::evolve(std::move(self->state.webhook), event);
            }
            self->state.version = result.stream_version;
            succeeded();
          },
          [self, failed](caf::error& error) {
            self->state.webhook = {};
            self->state.version = 0;
            load(self);
            failed(std::move(error));
          });
}

template <class Command, class... Rules>
caf::result<events::Webhook> handle(Self self, const Command& command, const Rules&... rules) {
  auto& state = self->state;
  state.last_active = Clock::now();
  if (state.load_error) return to_caf_error(*state.load_error);
  auto decided = events::decide(state.webhook, command, rules...);
  if (!decided) return to_caf_error(std::move(decided).error());
  if (decided->empty()) return *state.webhook.webhook;
  auto promise = self->make_response_promise<events::Webhook>();
  commit(
      self, *decided, command.account, command.at,
      [promise](caf::error error) mutable { promise.deliver(std::move(error)); },
      [self, promise]() mutable { promise.deliver(*self->state.webhook.webhook); });
  return promise;
}

void disable(Self self, std::string reason) {
  auto& state = self->state;
  const auto now = events::now_millis();
  auto decided =
      events::decide(state.webhook, events::DisableWebhook{state.config.webhook_id, reason, now});
  if (!decided || decided->empty()) return;
  log::warn("webhooks", "disabled: " + reason, {{"webhookId", state.config.webhook_id}});
  commit(
      self, *decided, state.webhook.webhook->account, now,
      [self](caf::error error) {
        log::error("webhooks", "could not record the disabling: " + caf::to_string(error),
                   {{"webhookId", self->state.config.webhook_id}});
      },
      [] {});
}

std::string describe_status(unsigned status) {
  if (status >= 300 && status < 400) {
    return "the receiver answered " + std::to_string(status) + " (redirects are not followed)";
  }
  if (status == 410) return "the receiver answered 410 Gone; the webhook is disabled";
  return "the receiver answered " + std::to_string(status);
}

void start_next(Self self);

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
    auto encoded = events::encode(waiting.attempt);
    request.events.push_back({events::new_time_ordered_id(events::kEventIdPrefix),
                              std::move(encoded.type), account, waiting.attempt.at,
                              std::move(encoded.data)});
  }
  state.append_in_flight = true;
  self->request(state.config.store, kAppendTimeout, append_atom_v, std::move(request))
      .then(
          [self](const store::AppendResult&) {
            auto& state = self->state;
            auto done = std::move(state.appending);
            state.appending.clear();
            state.append_in_flight = false;
            for (auto& attempt : done) after_recorded(self, attempt);
            flush_records(self);
          },
          [self](caf::error& error) {
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

// Records one attempt (in the next batch); what follows from it waits until
// it is durable.
void record(Self self, Send send, const OutboundResult& result, bool sent,
            bool retry_unsent = false) {
  auto& state = self->state;
  const auto now = events::now_millis();
  const auto verdict =
      sent ? events::verdict_of(result.status, result.refused) : events::AttemptVerdict::kFailed;
  events::DeliveryAttempted attempt;
  attempt.delivery_id = events::new_time_ordered_id(events::kDeliveryIdPrefix);
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
  std::optional<events::Millis> delay;
  if ((verdict == events::AttemptVerdict::kRetry || backlog) && !send.manual) {
    std::optional<events::Millis> retry_after;
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

// Signs and sends one attempt through the client.
void start(Self self, Send send) {
  auto& state = self->state;
  if (!accepting(state)) {
    OutboundResult result;
    result.error = state.webhook.deleted ? "not sent: the webhook was deleted"
                                         : "not sent: the webhook is inactive";
    return record(self, std::move(send), result, false);
  }
  const auto& webhook = *state.webhook.webhook;
  const auto now = events::now_millis();
  const std::int64_t timestamp = now / 1000;
  const auto secrets = events::signing_secrets(webhook, now);
  std::string standard;
  for (const auto& secret : secrets) {
    if (auto signature = events::standard_signature(secret, send.event_id, timestamp, *send.body)) {
      if (!standard.empty()) standard.push_back(' ');
      standard += *signature;
    }
  }
  OutboundRequest request;
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
  state.config.client->post(std::move(request),
                            [handle = webhook_actor{self}, ticket](OutboundResult result) {
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
  OutboundResult result;
  result.error = "not sent: " + std::to_string(state.queue.size()) +
                 " deliveries to this webhook are already waiting";
  record(self, std::move(send), result, false, true);
}

// The event at `position`, checked to be `event_id`.
events::Result<events::RecordedEvent> event_at(const store::EventLog& log, std::uint64_t position,
                                               const std::string& event_id) {
  auto page = log.read_all(position, 1);
  if (!page) return std::move(page).error();
  if (page->empty() || page->front().event.id != event_id) {
    return events::Error::internal("event " + event_id + " is not at position " +
                                   std::to_string(position));
  }
  return std::move(page->front());
}

webhook_actor::behavior_type webhook_behavior(Self self, WebhookActorConfig config) {
  self->state.config = std::move(config);
  load(self);
  self->delayed_send(self, self->state.config.idle_after, idle_atom_v);
  return {
      [self](const events::CreateWebhook& command) {
        return handle(self, command, self->state.config.rules);
      },
      [self](const events::UpdateWebhook& command) {
        return handle(self, command, self->state.config.rules);
      },
      [self](const events::DeleteWebhook& command) { return handle(self, command); },
      [self](const events::RotateWebhookSecret& command) { return handle(self, command); },
      [self](DeliverEvents& batch) -> caf::result<bool> {
        auto& state = self->state;
        state.last_active = Clock::now();
        if (state.load_error) return to_caf_error(*state.load_error);
        if (!accepting(state)) return true;
        std::vector<Send> sends;
        sends.reserve(batch.deliveries.size());
        for (auto& delivery : batch.deliveries) {
          if (delivery.check_attempted) {
            // Attempted before a restart: its retries are the pending ones.
            auto earlier =
                state.config.deliveries->attempts(state.config.webhook_id, delivery.event_id);
            if (!earlier) return to_caf_error(std::move(earlier).error());
            if (*earlier > 0) continue;
          }
          sends.push_back(Send{std::move(delivery.event_id), delivery.event_position,
                               std::move(delivery.public_type), std::move(delivery.body), 1, false,
                               nullptr});
        }
        if (sends.empty()) return true;
        auto ack =
            std::make_shared<BatchAck>(BatchAck{self->make_response_promise<bool>(), sends.size()});
        for (auto& send : sends) {
          send.ack = ack;
          enqueue(self, std::move(send));
        }
        return ack->promise;
      },
      [self](RetryDelivery& retry) {
        auto& state = self->state;
        state.last_active = Clock::now();
        if (retry.from_timer) {
          --state.timers;
          retry.from_timer = false;
        }
        const auto now = events::now_millis();
        if (retry.due > now) {
          ++state.timers;
          retry.from_timer = true;
          self->delayed_send(self, std::chrono::milliseconds(retry.due - now), retry);
          return;
        }
        auto record = event_at(*state.config.log, retry.event_position, retry.event_id);
        if (!record) {
          log::error("webhooks", record.error().message, {{"webhookId", state.config.webhook_id}});
          return;
        }
        const auto type = events::public_type_of(record->event.type);
        if (!type) return;
        enqueue(self, Send{retry.event_id, retry.event_position, std::string(*type),
                           std::make_shared<const std::string>(*events::public_envelope(*record)),
                           retry.attempt, false, nullptr});
      },
      [self](const RedeliverWebhook& command) -> caf::result<RedeliveryQueued> {
        auto& state = self->state;
        state.last_active = Clock::now();
        if (state.load_error) return to_caf_error(*state.load_error);
        if (!state.webhook.webhook || state.webhook.deleted ||
            state.webhook.webhook->account != command.account) {
          return to_caf_error(events::Error::not_found("no webhook " + command.webhook_id));
        }
        auto entry = state.config.deliveries->find(command.delivery_id);
        if (!entry) return to_caf_error(std::move(entry).error());
        if (!*entry || (*entry)->webhook_id != command.webhook_id) {
          return to_caf_error(events::Error::not_found("no delivery " + command.delivery_id));
        }
        if (!state.webhook.webhook->active) {
          return to_caf_error(events::Error::conflict(
              "the webhook is inactive; activate it (PUT active: true) before redelivering"));
        }
        const auto& original = **entry;
        auto record = event_at(*state.config.log, original.event_position, original.event_id);
        if (!record) return to_caf_error(std::move(record).error());
        auto recorded =
            state.config.deliveries->attempts(state.config.webhook_id, original.event_id);
        if (!recorded) return to_caf_error(std::move(recorded).error());
        // The attempts recorded, made but not yet recorded, and in flight.
        std::uint32_t attempt = *recorded + 1;
        for (const auto& [ticket, send] : state.in_flight) {
          if (send.event_id == original.event_id) ++attempt;
        }
        for (const auto* waiting : {&state.unrecorded, &state.appending}) {
          for (const auto& made : *waiting) {
            if (made.attempt.event_id == original.event_id) ++attempt;
          }
        }
        enqueue(self, Send{original.event_id, original.event_position, original.event_type,
                           std::make_shared<const std::string>(*events::public_envelope(*record)),
                           attempt, true, nullptr});
        return RedeliveryQueued{command.webhook_id, original.event_id, original.event_type,
                                attempt};
      },
      [self](AttemptFinished& finished) {
        auto& state = self->state;
        auto it = state.in_flight.find(finished.ticket);
        if (it == state.in_flight.end()) return;
        Send send = std::move(it->second);
        state.in_flight.erase(it);
        record(self, std::move(send), finished.result, true);
        start_next(self);
      },
      [self](idle_atom) {
        auto& state = self->state;
        const bool busy = !state.queue.empty() || !state.in_flight.empty() ||
                          state.append_in_flight || !state.unrecorded.empty() || state.timers != 0;
        if (state.stopping) {
          if (busy) {
            self->delayed_send(self, std::chrono::seconds(1), idle_atom_v);
          } else {
            self->quit();
          }
          return;
        }
        const auto idle_for = Clock::now() - state.last_active;
        if (!busy && idle_for >= state.config.idle_after) {
          self->send(state.config.registry, idle_atom_v, state.config.webhook_id);
        } else {
          self->delayed_send(self, state.config.idle_after, idle_atom_v);
        }
      },
      [self](stop_atom) {
        // Work routed here between the idle report and this stop finishes first.
        auto& state = self->state;
        state.stopping = true;
        if (state.queue.empty() && state.in_flight.empty() && !state.append_in_flight &&
            state.unrecorded.empty() && state.timers == 0) {
          self->quit();
        } else {
          self->delayed_send(self, std::chrono::seconds(1), idle_atom_v);
        }
      },
  };
}

}  // namespace

webhook_actor spawn_webhook_actor(caf::actor_system& system, WebhookActorConfig config) {
  return system.spawn(webhook_behavior, std::move(config));
}

}  // namespace vouch::actors
