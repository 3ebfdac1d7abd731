#include "actors/delivery/webhook_dispatcher.hpp"

#include <iostream>
#include <map>
#include <memory>
#include <unordered_map>

#include "actors/domain/webhook_actor.hpp"
#include "actors/errors.hpp"
#include "actors/timeouts.hpp"
#include "events/public_types.hpp"
#include "events/webhook.hpp"
#include "log/log.hpp"
#include "store/subscriber_cursor.hpp"

namespace vouch::actors {
namespace {

constexpr std::size_t kPage = 256;
constexpr auto kFlushEvery = std::chrono::milliseconds(100);
constexpr auto kHandOverAgainAfter = std::chrono::seconds(1);
constexpr std::size_t kMaxCachedAccounts = 10'000;

struct DispatcherState {
  WebhookDispatcherConfig config;
  std::unique_ptr<store::SubscriberCursor> cursor;
  std::uint64_t saved = 0;  // the cursor as stored
  std::uint64_t next = 1;   // the next position to read
  // The log's last position when the dispatcher started: events up to it may
  // have been attempted before a restart, and the webhook actors check.
  std::uint64_t last_before_start = 0;
  std::map<std::uint64_t, std::size_t> unrecorded;  // position → deliveries not yet recorded
  std::size_t unrecorded_total = 0;
  bool flush_scheduled = false;
  // The webhooks of each account as the read model last gave them; cleared
  // whenever the log shows a webhook event, so every public event is matched
  // against the webhooks as they stood at least as late as the event itself.
  std::unordered_map<std::string, std::vector<store::WebhookEntry>> webhooks_of;
  static inline const char* name = "vouch.webhook-dispatcher";
};

using Self = webhook_dispatcher_actor::stateful_pointer<DispatcherState>;

std::uint64_t done_through(const DispatcherState& state) {
  return state.unrecorded.empty() ? state.next - 1 : state.unrecorded.begin()->first - 1;
}

void schedule_flush(Self self) {
  if (self->state.flush_scheduled) return;
  self->state.flush_scheduled = true;
  self->delayed_send(self, kFlushEvery, flush_atom_v);
}

void pump(Self self);

void recorded(Self self, std::uint64_t position) {
  auto& state = self->state;
  auto it = state.unrecorded.find(position);
  if (it == state.unrecorded.end()) return;
  --state.unrecorded_total;
  if (--it->second == 0) state.unrecorded.erase(it);
  schedule_flush(self);
  if (state.unrecorded_total + kPage <= kMaxUnrecordedDeliveries) pump(self);
}

void hand_over(Self self, DeliverEvents batch) {
  auto handed = self->request(self->state.config.registry, kLocalRequestTimeout, batch);
  handed.then(
      [self, batch, id = handed.id()](bool) {
        forget_timeout(self, id);
        for (const auto& delivery : batch.deliveries) recorded(self, delivery.event_position);
      },
      [self, batch, id = handed.id()](caf::error& error) mutable {
        forget_timeout(self, id);
        log::warn("webhook-dispatcher", "handing " + std::to_string(batch.deliveries.size()) +
                                            " events to webhook " + batch.webhook_id + " failed (" +
                                            from_caf_error(error).message + "); trying again");
        // Some may have been attempted meanwhile: the webhook actor checks.
        for (auto& delivery : batch.deliveries) delivery.check_attempted = true;
        self->delayed_send(self, kHandOverAgainAfter, std::move(batch));
      });
}

// A stored type that changes the webhooks read model.
bool changes_webhooks(std::string_view type) { return events::is_webhook_event(type); }

// What the dispatcher decodes: events that go to webhooks, and those that
// change the webhooks (to drop its cache of them).
bool wanted(std::string_view type) {
  return events::public_type_of(type).has_value() || changes_webhooks(type);
}

// Reads on from `next` until the log is exhausted or the window is full.
// Internal events (delivery attempts, keys, webhooks) are skipped without
// being decoded; each page goes to each webhook as one batch, and an event's
// body is built once for all its webhooks.
void pump(Self self) {
  auto& state = self->state;
  while (state.unrecorded_total + kPage <= kMaxUnrecordedDeliveries) {
    auto page = state.config.log->read_all_of(state.next, kPage, wanted);
    if (!page) {
      log::error("webhook-dispatcher", "cannot read the log: " + page.error().message);
      return;
    }
    std::map<std::string, DeliverEvents> batches;  // by webhook id
    std::uint64_t next = page->next_position;
    for (auto& record : page->events) {
      if (changes_webhooks(record.event.type)) {
        state.webhooks_of.clear();
        continue;
      }
      const auto type = events::public_type_of(record.event.type);
      auto& webhooks_of = state.webhooks_of;
      auto known = webhooks_of.find(record.event.account);
      if (known == webhooks_of.end()) {
        auto webhooks = state.config.webhooks->all_of(record.event.account);
        if (!webhooks) {
          log::error("webhook-dispatcher", "cannot read the webhooks: " + webhooks.error().message);
          next = record.position;  // read it again on the next pump
          break;
        }
        if (webhooks_of.size() >= kMaxCachedAccounts) webhooks_of.clear();
        known = webhooks_of.emplace(record.event.account, std::move(webhooks).value()).first;
      }
      std::shared_ptr<const std::string> body;
      for (const auto& entry : known->second) {
        const auto& webhook = entry.webhook;
        if (!webhook.active || entry.created_position >= record.position ||
            !events::any_pattern_matches(webhook.events, *type)) {
          continue;
        }
        if (!body) {
          auto envelope = events::public_envelope(record);
          if (!envelope) {
            // Corrupt stored data: the projector reports it (/readyz); nothing to send.
            log::error("webhook-dispatcher", envelope.error().message,
                       {{"eventId", record.event.id}});
            break;
          }
          body = std::make_shared<const std::string>(std::move(envelope).value());
        }
        ++state.unrecorded[record.position];
        ++state.unrecorded_total;
        auto& batch = batches[webhook.id];
        batch.webhook_id = webhook.id;
        batch.deliveries.push_back(Delivery{record.event.id, record.position, std::string(*type),
                                            body, record.position <= state.last_before_start});
      }
    }
    state.next = next;
    for (auto& [id, batch] : batches) hand_over(self, std::move(batch));
    if (page->exhausted || next != page->next_position) break;
  }
  schedule_flush(self);
}

void reschedule_pending(Self self) {
  auto pending = self->state.config.deliveries->pending();
  if (!pending) {
    log::error("webhook-dispatcher", "cannot read the pending retries: " + pending.error().message);
    return;
  }
  for (const auto& attempt : *pending) {
    self->send(self->state.config.registry,
               RetryDelivery{attempt.webhook_id, attempt.event_id, attempt.event_position,
                             attempt.attempt + 1, attempt.next_attempt.value_or(0), false});
  }
  if (!pending->empty()) {
    log::info("webhook-dispatcher",
              "rescheduled " + std::to_string(pending->size()) + " pending retries");
  }
}

webhook_dispatcher_actor::behavior_type dispatcher(Self self, WebhookDispatcherConfig config) {
  auto& state = self->state;
  state.config = std::move(config);
  state.cursor = std::make_unique<store::SubscriberCursor>(*state.config.database, "webhooks");
  auto saved = state.cursor->load();
  if (!saved) {
    log::error("webhook-dispatcher",
               "cannot read the dispatcher's cursor: " + saved.error().message);
  } else {
    state.saved = *saved;
    state.next = *saved + 1;
  }
  state.last_before_start = state.config.log->last_position();
  reschedule_pending(self);
  self->send(self, pump_atom_v);
  return {
      [self](committed_atom, std::uint64_t last) {
        if (last >= self->state.next) pump(self);
      },
      [self](pump_atom) { pump(self); },
      [self](flush_atom) {
        auto& state = self->state;
        state.flush_scheduled = false;
        const auto through = done_through(state);
        if (through <= state.saved) return;
        if (auto status = state.cursor->save(through); !status) {
          log::error("webhook-dispatcher", status.error().message);
          return;
        }
        state.saved = through;
      },
      [self](DeliverEvents& batch) { hand_over(self, std::move(batch)); },
  };
}

}  // namespace

webhook_dispatcher_actor spawn_webhook_dispatcher(caf::actor_system& system,
                                                  WebhookDispatcherConfig config) {
  return system.spawn(dispatcher, std::move(config));
}

}  // namespace vouch::actors
