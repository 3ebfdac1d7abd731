#pragma once

#include "actors/execution/runner_settings.hpp"
#include "actors/execution/runner_stats.hpp"
#include "actors/type_ids.hpp"
#include "process/child_process.hpp"

namespace vouch::actors {

// Spawns the executor pool. It keeps `settings.warm_runners` runner/bin/run.js
// processes of the default Node.js version started in their sandboxes, Jest
// loaded and primed, and gives each to exactly one run, so start-up is off a
// run's critical path while every run still gets a fresh process and folder.
// Other Node.js versions get a runner started on demand. At most
// `settings.executor_slots` runs hold a runner at once; a run waits in line
// for up to `settings.run_queue_wait`, then gets kUnavailable. The holder of
// a runner sends release_atom when its process has ended.
// REQUIRES: `settings`, `host` and `stats` outlive the actor.
executor_pool_actor spawn_executor_pool(caf::actor_system& system, const RunnerSettings& settings,
                                        process::ProcessHost& host, RunnerStats& stats);

}  // namespace vouch::actors
