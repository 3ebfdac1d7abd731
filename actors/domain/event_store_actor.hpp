#pragma once

#include "actors/type_ids.hpp"
#include "store/event_log.hpp"

namespace vouch::actors {

// Spawns the actor that owns appends to `log`. It hands each append to the
// log's writer thread and answers when the events are durable, so many actors
// share one fsync. REQUIRES: `log` outlives the actor system.
event_store_actor spawn_event_store(caf::actor_system& system, store::EventLog& log);

}  // namespace vouch::actors
