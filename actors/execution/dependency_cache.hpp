#pragma once

#include <string>

#include "actors/execution/runner_settings.hpp"
#include "actors/type_ids.hpp"
#include "events/run.hpp"
#include "process/child_process.hpp"

namespace vouch::actors {

// The folder of one dependency map below `settings.dependency_root`: a
// SHA-256 of the map in name order, so equal maps share one install.
std::string dependency_key(const events::RunEnvironment& environment);

// Spawns the cache that installs a run's npm dependencies with `npm install
// --ignore-scripts` into a folder keyed by the whole dependency map, once:
// a second run with the same map installs nothing, and concurrent runs with
// one map share one install. A failed install answers with npm's reason.
// REQUIRES: `settings` and `host` outlive the actor.
dependency_cache_actor spawn_dependency_cache(caf::actor_system& system,
                                              const RunnerSettings& settings,
                                              process::ProcessHost& host);

}  // namespace vouch::actors
