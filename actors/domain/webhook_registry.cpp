#include "actors/domain/webhook_registry.hpp"

#include "actors/domain/keyed_actors.hpp"

namespace vouch::actors {
namespace {

constexpr char kRegistryName[] = "vouch.webhook-registry";
using Self = webhook_registry_actor::stateful_pointer<RegistryState<webhook_actor, kRegistryName>>;

// Answers `message` with the reply of the webhook's actor, once it has one.
template <class Reply, class Message>
caf::result<Reply> route(Self self, const std::string& id, Message message) {
  return self->state.actors->delegate<Reply>(self, id, std::move(message));
}

webhook_registry_actor::behavior_type registry(Self self, WebhookActorConfig prototype) {
  keep_keyed_actors(self, self->state.actors, [self, prototype](const std::string& id) {
    WebhookActorConfig config = prototype;
    config.webhook_id = id;
    config.registry = self;
    return spawn_webhook_actor(self->system(), std::move(config));
  });
  return {
      [self](const events::CreateWebhook& command) {
        return route<events::Webhook>(self, command.id, command);
      },
      [self](const events::UpdateWebhook& command) {
        return route<events::Webhook>(self, command.id, command);
      },
      [self](const events::DeleteWebhook& command) {
        return route<events::Webhook>(self, command.id, command);
      },
      [self](const events::RotateWebhookSecret& command) {
        return route<events::Webhook>(self, command.id, command);
      },
      [self](const DeliverEvents& batch) { return route<bool>(self, batch.webhook_id, batch); },
      [self](const RedeliverWebhook& command) {
        return route<RedeliveryQueued>(self, command.webhook_id, command);
      },
      [self](const RetryDelivery& retry) {
        self->state.actors->with(retry.webhook_id, [self, retry](const webhook_actor& actor) {
          self->send(actor, retry);
        });
      },
      [self](idle_atom, const std::string& id) { self->state.actors->stop(id); },
  };
}

}  // namespace

webhook_registry_actor spawn_webhook_registry(caf::actor_system& system,
                                              WebhookActorConfig prototype) {
  return system.spawn(registry, std::move(prototype));
}

}  // namespace vouch::actors
