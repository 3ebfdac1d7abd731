#pragma once

#include "actors/domain/webhook_actor.hpp"

namespace vouch::actors {

// Spawns the registry that routes each webhook command, delivery and retry to
// the one actor of that webhook, spawning it on first use (with `prototype`'s
// settings and its own id and handle) and stopping it when it is idle with
// nothing in flight, queued or scheduled.
webhook_registry_actor spawn_webhook_registry(caf::actor_system& system,
                                              WebhookActorConfig prototype);

}  // namespace vouch::actors
