#pragma once

#include "actors/type_ids.hpp"
#include "store/tests_view.hpp"

namespace vouch::actors {

struct GenerationCoordinatorConfig {
  worker_hub_actor hub;  // where generations execute
  event_store_actor store;
  const store::TestsView* tests = nullptr;
};

// Spawns the actor that has tests generated and records them: each
// GenerateTests goes to the worker hub as a GenerationTask (a worker slot,
// local or remote, installs the environment's dependencies and runs a fresh
// sandboxed generator; an install that fails leaves the generation without
// them and adds an `install_failed` problem to the summary).
// - Synchronous: the generated test, with its environment, is appended to
//   the log (TestGenerated) before the reply. The hub's failures come back
//   unchanged (kUnavailable with a Retry-After when no generator was free in
//   time).
// - Asynchronous (async_atom): TestGenerationAccepted is appended before the
//   reply (the test, generating); the end is TestGenerated, or
//   TestGenerationFailed with the hub's error. Until then the generator's
//   progress is kept in memory only. On start, every generation a previous
//   process accepted without an end is ended as failed ("interrupted").
// REQUIRES: config.tests outlives the actor.
generation_coordinator_actor spawn_generation_coordinator(caf::actor_system& system,
                                                          GenerationCoordinatorConfig config);

}  // namespace vouch::actors
