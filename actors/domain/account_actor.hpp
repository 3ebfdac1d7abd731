#pragma once

#include "actors/type_ids.hpp"
#include "store/event_log.hpp"

namespace vouch::actors {

// Spawns the one actor that serialises account and API-key commands. Issuing
// a key opens the account (or changes its plan) and then records the key's
// hash; the secret is returned once and never stored.
account_actor spawn_account_actor(caf::actor_system& system, const store::EventLog& log,
                                  event_store_actor store);

}  // namespace vouch::actors
