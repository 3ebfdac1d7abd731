#pragma once

#include "actors/execution/runner_settings.hpp"
#include "actors/type_ids.hpp"

namespace vouch::actors {

struct RunActorConfig {
  events::TestRun run;
  std::vector<events::SourceFile> files;  // the test's sources and generated tests
  const RunnerSettings* settings = nullptr;
  dependency_cache_actor dependencies;
  executor_pool_actor executors;
  run_coordinator_actor coordinator;
};

// Spawns the actor that drives one run: dependencies installed, a ready
// runner from the pool, the job written to it, the report read back (or the
// limit that stopped it), the runner released, and the report handed to the
// coordinator, which records how the run ended. Then it stops.
run_actor spawn_run_actor(caf::actor_system& system, RunActorConfig config);

}  // namespace vouch::actors
