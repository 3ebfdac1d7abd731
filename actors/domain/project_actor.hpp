#pragma once

#include <chrono>
#include <string>

#include "actors/type_ids.hpp"
#include "store/event_log.hpp"

namespace vouch::actors {

struct ProjectActorConfig {
  std::string project_id;
  const store::EventLog* log = nullptr;  // for loading the stream; outlives the actor system
  event_store_actor store;
};

// Spawns the actor of one project. It loads the project's stream, then runs
// each command through decide(), appends the events with the stream version
// it holds (so a second writer would conflict, never overwrite), waits for
// durability before the next command, and folds the events with evolve().
// It runs until told to stop (stop_atom, from its registry).
project_actor spawn_project_actor(caf::actor_system& system, ProjectActorConfig config);

}  // namespace vouch::actors
