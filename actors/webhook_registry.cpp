#include "actors/webhook_registry.hpp"

#include <unordered_map>

namespace vouch::actors {
namespace {

struct RegistryState {
  std::unordered_map<std::string, webhook_actor> webhooks;
  static inline const char* name = "vouch.webhook-registry";
};

using Self = webhook_registry_actor::stateful_pointer<RegistryState>;

webhook_actor actor_for(Self self, const std::string& id, const WebhookActorConfig& prototype) {
  auto& webhooks = self->state.webhooks;
  if (auto it = webhooks.find(id); it != webhooks.end()) return it->second;
  WebhookActorConfig config = prototype;
  config.webhook_id = id;
  config.registry = self;
  auto actor = spawn_webhook_actor(self->system(), std::move(config));
  // Linked, so that stopping the registry stops every webhook actor with it.
  self->link_to(actor);
  webhooks.emplace(id, actor);
  return actor;
}

webhook_registry_actor::behavior_type registry(Self self, WebhookActorConfig prototype) {
  auto route = [self, prototype](const std::string& id, const auto& message) {
    return self->delegate(actor_for(self, id, prototype), message);
  };
  return {
      [route](const events::CreateWebhook& command) { return route(command.id, command); },
      [route](const events::UpdateWebhook& command) { return route(command.id, command); },
      [route](const events::DeleteWebhook& command) { return route(command.id, command); },
      [route](const events::RotateWebhookSecret& command) { return route(command.id, command); },
      [route](const DeliverEvents& batch) { return route(batch.webhook_id, batch); },
      [route](const RedeliverWebhook& command) { return route(command.webhook_id, command); },
      [self, prototype](const RetryDelivery& retry) {
        self->send(actor_for(self, retry.webhook_id, prototype), retry);
      },
      [self](idle_atom, const std::string& id) {
        auto it = self->state.webhooks.find(id);
        if (it == self->state.webhooks.end()) return;
        self->send(it->second, stop_atom_v);
        self->state.webhooks.erase(it);
      },
  };
}

}  // namespace

webhook_registry_actor spawn_webhook_registry(caf::actor_system& system,
                                              WebhookActorConfig prototype) {
  return system.spawn(registry, std::move(prototype));
}

}  // namespace vouch::actors
