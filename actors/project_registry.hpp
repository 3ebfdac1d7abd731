#pragma once

#include <chrono>

#include "actors/type_ids.hpp"
#include "store/event_log.hpp"

namespace vouch::actors {

// Spawns the registry that routes each project command to the one actor of
// that project, spawning it on first use. An idle project actor asks to stop;
// the registry forgets it first and then tells it to stop, so the stop comes
// after every command the registry routed to it and none is lost.
project_registry_actor spawn_project_registry(caf::actor_system& system, const store::EventLog& log,
                                              event_store_actor store,
                                              std::chrono::milliseconds idle_after);

}  // namespace vouch::actors
