#pragma once

#include <string>

#include "actors/execution/runner_settings.hpp"
#include "actors/type_ids.hpp"
#include "process/child_process.hpp"

namespace vouch::actors {

struct WorkerConfig {
  const RunnerSettings* settings = nullptr;
  process::ProcessHost* host = nullptr;
  dependency_cache_actor dependencies;  // this machine's npm installs
  executor_pool_actor executors;        // this machine's warm runners
  std::string name;                     // stamped on every answer (GenerationDone::worker)
};

// Spawns the actor that executes generations and runs on this machine, in
// vouchd itself (the server's local slots) or in a `vouchd worker` process
// (reached from the server through CAF's remote actors): the same code for
// both. Each job gets an actor of its own, which installs the environment's
// dependencies through `dependencies`, then starts a fresh sandboxed
// generator or takes a ready runner from `executors`, and answers with what
// came of it (a failure is in the answer, never a CAF error). A run's answer
// carries Jest's coverage report. It does not queue: the server's worker hub
// sends it no more jobs than the slots it offered.
// REQUIRES: `settings` and `host` outlive the actor.
worker_actor spawn_worker(caf::actor_system& system, WorkerConfig config);

}  // namespace vouch::actors
