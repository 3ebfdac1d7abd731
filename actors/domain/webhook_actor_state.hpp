#pragma once

#include <caf/all.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "actors/domain/webhook_actor.hpp"

// The state of one webhook's actor and the functions its two halves share:
// the webhook aggregate (commands, decide and evolve: webhook_actor.cpp) and
// the delivery engine (the queue, attempts in flight, their recording, the
// retry timers: webhook_delivery_engine.cpp). Internal to those two files.
namespace vouch::actors::webhook_detail {

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
  std::optional<base::Millis> delay;  // to the next attempt
  events::AttemptVerdict verdict = events::AttemptVerdict::kFailed;
  std::shared_ptr<BatchAck> ack;
};

struct WebhookActorState {
  WebhookActorConfig config;
  events::WebhookState webhook;
  std::uint64_t version = 0;
  std::optional<base::Error> load_error;

  std::deque<Send> queue;
  std::unordered_map<std::uint64_t, Send> in_flight;
  std::uint64_t next_ticket = 1;
  // Attempts are recorded in batches: at most one append in flight, and the
  // attempts finished meanwhile wait for it and then go in one append.
  std::vector<Unrecorded> unrecorded;  // waiting for the next append
  std::vector<Unrecorded> appending;   // in the append in flight
  bool append_in_flight = false;
  std::size_t timers = 0;  // retries scheduled
  std::optional<base::Millis> failing_since;
  std::mt19937_64 random{std::random_device{}()};
  Clock::time_point last_active = Clock::now();
  bool stopping = false;  // the registry forgot this actor; quit once nothing is left
  // The plain secrets that sign, by data key id, opened once and kept in
  // memory only (signing_secrets() in the delivery engine).
  std::vector<std::pair<std::string, std::string>> opened;
  std::string retired_key;  // a previous secret's key destroyed after its overlap
  static inline const char* name = "vouch.webhook";
};

using Self = webhook_actor::stateful_pointer<WebhookActorState>;

// The aggregate's side.
bool accepting(const WebhookActorState& state);
void disable(Self self, std::string reason);

// Destroys the data keys `key_ids` (logged when it fails: the next start's
// sweep destroys them), then clears them from the files on a detached actor.
void destroy_keys(Self self, std::vector<std::string> key_ids);

// The delivery engine's side.
// Queues an attempt, and starts it when a slot is free.
void enqueue(Self self, Send send);
// Starts queued attempts while slots are free.
void start_next(Self self);
// Records one attempt (in the next batch); what follows from it waits until
// it is durable.
void record(Self self, Send send, const transport::OutboundResult& result, bool sent,
            bool retry_unsent = false);
// The event at `position`, checked to be `event_id`.
base::Result<events::RecordedEvent> event_at(const store::EventLog& log, std::uint64_t position,
                                             const std::string& event_id);

}  // namespace vouch::actors::webhook_detail
