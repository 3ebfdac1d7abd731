#pragma once

#include "actors/execution/runner_settings.hpp"
#include "actors/type_ids.hpp"

namespace vouch::actors {

struct RunActorConfig {
  events::TestRun run;
  std::vector<events::SourceFile> files;     // the test's sources and generated tests
  const RunnerSettings* settings = nullptr;  // where coverage reports are kept
  worker_hub_actor workers;
  run_coordinator_actor coordinator;
};

// Spawns the actor that drives one run: the run goes to a worker slot
// through the hub (the worker installs the dependencies, takes a ready
// runner and reads back the report or the limit that stopped it), the
// coverage report that comes back is kept, and the report is handed to the
// coordinator, which records how the run ended. Then it stops.
run_actor spawn_run_actor(caf::actor_system& system, RunActorConfig config);

}  // namespace vouch::actors
