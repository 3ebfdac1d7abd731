#pragma once

#include <chrono>

#include "actors/domain/project_actor_stats.hpp"
#include "actors/type_ids.hpp"
#include "store/event_log.hpp"

namespace vouch::actors {

struct ProjectActorLimits {
  // A project actor unused this long stops (checked every quarter of it).
  std::chrono::milliseconds idle_after{60'000};
  // At most this many project actors are alive; one more stops the least
  // recently used. 0: no cap.
  std::size_t max_live = 0;
};

// Spawns the registry that routes each project command to the one actor of
// that project, spawning it on first use. The registry stops project actors
// idle for `limits.idle_after` and the least recently used beyond
// `limits.max_live`; it holds a stopping project's next commands until its
// actor is gone, then hands them to a fresh one (actors/domain/keyed_actors.hpp).
// It counts the live ones in `stats`. REQUIRES: `stats` outlives the registry.
project_registry_actor spawn_project_registry(caf::actor_system& system, const store::EventLog& log,
                                              event_store_actor store, ProjectActorLimits limits,
                                              ProjectActorStats& stats);

}  // namespace vouch::actors
