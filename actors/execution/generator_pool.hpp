#pragma once

#include "actors/execution/child_process.hpp"
#include "actors/execution/runner_settings.hpp"
#include "actors/execution/runner_stats.hpp"
#include "actors/type_ids.hpp"

namespace vouch::actors {

// Spawns the pool that generates tests: each request gets a fresh
// runner/bin/generate.js process, of the environment's Node.js major, inside
// runner/bin/sandbox.js (never code in this process), at most
// `settings.generator_slots` at once. The environment's dependencies are
// installed first through `dependencies`, the cache runs use, and the
// sandbox sees that one set read-only; an install that fails leaves the
// generation without them and adds an `install_failed` problem to its
// summary. A request that then finds no slot within
// `settings.generation_queue_wait` is refused with kUnavailable and a
// Retry-After. The generated test, with its environment, is appended to the
// log (TestGenerated) before the reply.
// REQUIRES: `settings`, `host` and `stats` outlive the actor.
generator_pool_actor spawn_generator_pool(caf::actor_system& system, const RunnerSettings& settings,
                                          ProcessHost& host, RunnerStats& stats,
                                          event_store_actor store,
                                          dependency_cache_actor dependencies);

}  // namespace vouch::actors
