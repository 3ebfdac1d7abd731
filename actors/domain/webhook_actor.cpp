#include "actors/domain/webhook_actor.hpp"

#include <algorithm>

#include "actors/domain/append_request.hpp"
#include "actors/domain/fold_stream.hpp"
#include "actors/domain/webhook_actor_state.hpp"
#include "actors/errors.hpp"
#include "actors/timeouts.hpp"
#include "base/ids.hpp"
#include "events/public_types.hpp"
#include "events/webhook.hpp"
#include "log/log.hpp"

namespace vouch::actors {
namespace webhook_detail {

void load(Self self) {
  auto& state = self->state;
  state.load_error = load_stream(*state.config.log, events::webhook_stream(state.config.webhook_id),
                                 events::decode_webhook_event, state.webhook, state.version);
  if (state.load_error) return;
  auto failing = state.config.deliveries->failing_since(state.config.webhook_id);
  if (failing) state.failing_since = *failing;
}

bool accepting(const WebhookActorState& state) {
  return state.webhook.webhook && !state.webhook.deleted && state.webhook.webhook->active;
}

// Appends the events a command decided and folds them; the reply carries the
// whole webhook (the handler decides whether the secret is shown).
void commit(Self self, const std::vector<events::WebhookEvent>& decided, const std::string& account,
            base::Millis at, std::function<void(caf::error)> failed,
            std::function<void()> succeeded) {
  auto& state = self->state;
  auto request = append_request(events::webhook_stream(state.config.webhook_id), state.version,
                                decided, account, at);
  // await: no other command of this webhook runs until the append is durable.
  auto append =
      self->request(state.config.store, kAppendTimeout, append_atom_v, std::move(request));
  append.await(
      [self, decided, succeeded, id = append.id()](const store::AppendResult& result) {
        forget_timeout(self, id);
        for (const auto& event : decided) {
          self->state.webhook = events::evolve(std::move(self->state.webhook), event);
        }
        self->state.version = result.stream_version;
        succeeded();
      },
      [self, failed, id = append.id()](caf::error& error) {
        forget_timeout(self, id);
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

// A command that brings a new secret (creation, rotation): the secret is
// sealed under a fresh data key first, and decide() records only the sealed
// form. A refused command makes no key; one whose events are not stored has
// its key destroyed again.
template <class Command, class... Rules>
caf::result<events::Webhook> handle_with_secret(Self self, const Command& command,
                                                const Rules&... rules) {
  auto& state = self->state;
  state.last_active = Clock::now();
  if (state.load_error) return to_caf_error(*state.load_error);
  // Refused commands make no key: decide() is pure, so it can be asked first.
  auto checked = events::decide(state.webhook, command, events::SealedSecret{}, rules...);
  if (!checked) return to_caf_error(std::move(checked).error());
  if (checked->empty()) return *state.webhook.webhook;
  auto sealed = state.config.secrets->seal(command.id, command.secret);
  if (!sealed) return to_caf_error(std::move(sealed).error());
  auto decided = events::decide(state.webhook, command, *sealed, rules...);
  if (!decided) {
    destroy_keys(self, {sealed->key_id});
    return to_caf_error(std::move(decided).error());
  }
  auto promise = self->make_response_promise<events::Webhook>();
  commit(
      self, *decided, command.account, command.at,
      [self, promise, key = sealed->key_id](caf::error error) mutable {
        // Reloaded from the log: the key goes unless the events were stored after all.
        const auto needed = events::needed_keys(self->state.webhook, base::now_millis());
        if (std::find(needed.begin(), needed.end(), key) == needed.end()) {
          destroy_keys(self, {key});
        }
        promise.deliver(std::move(error));
      },
      [self, promise]() mutable { promise.deliver(*self->state.webhook.webhook); });
  return promise;
}

void destroy_keys(Self self, std::vector<std::string> key_ids) {
  auto& state = self->state;
  std::erase(key_ids, std::string());
  if (key_ids.empty()) return;
  std::erase_if(state.opened, [&](const auto& opened) {
    return std::find(key_ids.begin(), key_ids.end(), opened.first) != key_ids.end();
  });
  if (auto destroyed = state.config.secrets->destroy(key_ids); !destroyed) {
    log::error("webhooks", "could not destroy data keys: " + destroyed.error().message,
               {{"webhookId", state.config.webhook_id}});
    return;
  }
  // A flush and a compaction: off the cooperative workers.
  self->system().spawn<caf::detached>(
      [keys = &state.config.secrets->keys()](caf::event_based_actor*) {
        if (auto purged = keys->purge(); !purged) {
          log::error("webhooks", "could not purge destroyed data keys: " + purged.error().message);
        }
      });
}

void disable(Self self, std::string reason) {
  auto& state = self->state;
  const auto now = base::now_millis();
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

webhook_actor::behavior_type webhook_behavior(Self self, WebhookActorConfig config) {
  self->state.config = std::move(config);
  load(self);
  self->delayed_send(self, self->state.config.idle_after, idle_atom_v);
  return {
      [self](const events::CreateWebhook& command) {
        return handle_with_secret(self, command, self->state.config.rules);
      },
      [self](const events::UpdateWebhook& command) {
        return handle(self, command, self->state.config.rules);
      },
      [self](const events::DeleteWebhook& command) -> caf::result<events::Webhook> {
        auto& state = self->state;
        state.last_active = Clock::now();
        if (state.load_error) return to_caf_error(*state.load_error);
        auto decided = events::decide(state.webhook, command);
        if (!decided) return to_caf_error(std::move(decided).error());
        auto promise = self->make_response_promise<events::Webhook>();
        commit(
            self, *decided, command.account, command.at,
            [promise](caf::error error) mutable { promise.deliver(std::move(error)); },
            [self, promise]() mutable {
              // Crypto-shredding: without its keys, no copy of the log opens its secrets.
              const auto& webhook = *self->state.webhook.webhook;
              destroy_keys(self, {webhook.secret.key_id, webhook.previous_secret.key_id});
              promise.deliver(webhook);
            });
        return promise;
      },
      [self](const events::RotateWebhookSecret& command) {
        return handle_with_secret(self, command);
      },
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
        const auto now = base::now_millis();
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
        auto body = events::public_envelope(*record);
        if (!body) {
          log::error("webhooks", body.error().message, {{"webhookId", state.config.webhook_id}});
          return;
        }
        enqueue(self, Send{retry.event_id, retry.event_position, std::string(*type),
                           std::make_shared<const std::string>(std::move(body).value()),
                           retry.attempt, false, nullptr});
      },
      [self](const RedeliverWebhook& command) -> caf::result<RedeliveryQueued> {
        auto& state = self->state;
        state.last_active = Clock::now();
        if (state.load_error) return to_caf_error(*state.load_error);
        if (!state.webhook.webhook || state.webhook.deleted ||
            state.webhook.webhook->account != command.account) {
          return to_caf_error(base::Error::not_found("no webhook " + command.webhook_id));
        }
        auto entry = state.config.deliveries->find(command.delivery_id);
        if (!entry) return to_caf_error(std::move(entry).error());
        if (!*entry || (*entry)->webhook_id != command.webhook_id) {
          return to_caf_error(base::Error::not_found("no delivery " + command.delivery_id));
        }
        if (!state.webhook.webhook->active) {
          return to_caf_error(base::Error::conflict(
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
        auto body = events::public_envelope(*record);
        if (!body) return to_caf_error(std::move(body).error());
        enqueue(self, Send{original.event_id, original.event_position, original.event_type,
                           std::make_shared<const std::string>(std::move(body).value()), attempt,
                           true, nullptr});
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

}  // namespace webhook_detail

webhook_actor spawn_webhook_actor(caf::actor_system& system, WebhookActorConfig config) {
  return system.spawn(webhook_detail::webhook_behavior, std::move(config));
}

}  // namespace vouch::actors
