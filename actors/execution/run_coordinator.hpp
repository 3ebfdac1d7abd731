#pragma once

#include "actors/execution/runner_settings.hpp"
#include "actors/type_ids.hpp"
#include "store/projects_view.hpp"
#include "store/runs_view.hpp"
#include "store/tests_view.hpp"

namespace vouch::actors {

struct RunCoordinatorConfig {
  const RunnerSettings* settings = nullptr;
  const store::ProjectsView* projects = nullptr;
  const store::TestsView* tests = nullptr;
  const store::RunsView* runs = nullptr;
  event_store_actor store;
  worker_hub_actor workers;  // where runs execute
};

// Spawns the coordinator of runs. A StartRun is answered once its
// RunStarted (test.started) is durable; one actor per run then drives it.
// Ends are recorded one at a time (RunCompleted, RunFailed,
// CoverageUpdated in one append), judged against the project's threshold
// and latest coverage as they are at that moment. On start it ends every run
// a previous process left running as an error ("interrupted").
// REQUIRES: everything the config points to outlives the actor.
run_coordinator_actor spawn_run_coordinator(caf::actor_system& system, RunCoordinatorConfig config);

}  // namespace vouch::actors
