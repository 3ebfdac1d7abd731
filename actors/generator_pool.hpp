#pragma once

#include "actors/child_process.hpp"
#include "actors/runner_settings.hpp"
#include "actors/runner_stats.hpp"
#include "actors/type_ids.hpp"

namespace vouch::actors {

// Spawns the pool that generates tests: each request gets a fresh
// runner/bin/generate.js process inside runner/bin/sandbox.js (never code in
// this process), at most `settings.generator_slots` at once. A request that
// finds no slot within `settings.generation_queue_wait` is refused with
// kUnavailable and a Retry-After. The generated test is appended to the log
// (TestGenerated) before the reply.
// REQUIRES: `settings`, `host` and `stats` outlive the actor.
generator_pool_actor spawn_generator_pool(caf::actor_system& system, const RunnerSettings& settings,
                                          ProcessHost& host, RunnerStats& stats,
                                          event_store_actor store);

}  // namespace vouch::actors
