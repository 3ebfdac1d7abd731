#pragma once

#include "actors/type_ids.hpp"

namespace vouch::actors {

// Spawns the actor that has tests generated and records them: each
// GenerateTests goes to the worker hub as a GenerationTask (a worker slot,
// local or remote, installs the environment's dependencies and runs a fresh
// sandboxed generator; an install that fails leaves the generation without
// them and adds an `install_failed` problem to the summary). The generated
// test, with its environment, is appended to the log (TestGenerated) before
// the reply. The hub's failures come back unchanged (kUnavailable with a
// Retry-After when no generator was free in time).
generation_coordinator_actor spawn_generation_coordinator(caf::actor_system& system,
                                                          worker_hub_actor hub,
                                                          event_store_actor store);

}  // namespace vouch::actors
