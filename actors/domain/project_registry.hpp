#pragma once

#include <chrono>

#include "actors/type_ids.hpp"
#include "store/event_log.hpp"

namespace vouch::actors {

// Spawns the registry that routes each project command to the one actor of
// that project, spawning it on first use. An idle project actor asks to stop;
// the registry tells it to stop and holds the project's next commands until
// it is gone, then hands them to a fresh actor (actors/domain/keyed_actors.hpp).
project_registry_actor spawn_project_registry(caf::actor_system& system, const store::EventLog& log,
                                              event_store_actor store,
                                              std::chrono::milliseconds idle_after);

}  // namespace vouch::actors
