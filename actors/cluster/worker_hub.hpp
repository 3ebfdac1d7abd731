#pragma once

#include <chrono>

#include "actors/cluster/worker_stats.hpp"
#include "actors/execution/runner_settings.hpp"
#include "actors/execution/runner_stats.hpp"
#include "actors/type_ids.hpp"

namespace vouch::actors {

struct WorkerHubConfig {
  const RunnerSettings* settings = nullptr;  // the queue waits
  RunnerStats* runner_stats = nullptr;       // generations running, waiting, refused
  WorkerStats* stats = nullptr;
  worker_actor local;  // this server's own slots; null when it has none
  WorkerOffer local_offer;
  // A remote worker says it is there at least this often (it joins again)...
  std::chrono::milliseconds heartbeat_check{1'000};
  // ...and is lost when silent this long (a network that went quiet).
  std::chrono::milliseconds heartbeat_timeout{10'000};
};

// Spawns the hub that gives generations and runs to worker slots: this
// server's own (`local`) and those of `vouchd worker` processes that joined
// through the gate, all alike (the worker with the most free slots of the
// kind gets the job). A job waits in line for a slot up to the settings'
// generation_queue_wait / run_queue_wait, then fails (kUnavailable for a
// generation, a run error `no_runner`). A worker that disconnects (CAF's down
// message) or stays silent past heartbeat_timeout is lost: each of its jobs
// is sent once more to another slot, and a job lost twice, or lost when no
// other worker offers its kind, fails with `worker_lost`. Answers of a lost
// attempt are dropped. Waits and silences are measured on the actor system's
// clock (CAF's actor clock), which a test scheduler moves.
// REQUIRES: everything the config points to outlives the actor.
worker_hub_actor spawn_worker_hub(caf::actor_system& system, WorkerHubConfig config);

// Spawns the one actor a server publishes to workers: it takes joins and
// nothing else, so a connected peer cannot hand the hub jobs.
worker_gate_actor spawn_worker_gate(caf::actor_system& system, worker_hub_actor hub);

}  // namespace vouch::actors
