#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "actors/cluster/network.hpp"
#include "actors/execution/runner_settings.hpp"
#include "actors/execution/runner_stats.hpp"

namespace vouch::actors {

struct WorkerNodeOptions {
  std::string server_host;
  std::uint16_t server_port = 0;
  NetworkOptions network;  // enabled
  std::string name;        // shown in the server's logs and metrics
  // How often the worker says it is there (it joins again); the server
  // drops a worker silent for its heartbeat timeout.
  std::chrono::milliseconds heartbeat{2'000};
};

// A `vouchd worker` process's actors: its own dependency cache, warm
// runners and worker actor (the same as a server's local one), offered to
// the server's worker hub through CAF's remote actors. It connects at once,
// joins with its slots, says it is there every heartbeat, and when the
// connection is lost (or cannot be made) tries again every few seconds,
// joining again once it is back. Destroying it kills its runners and stops
// its actors. No CAF in this header.
class WorkerNode {
 public:
  // REQUIRES: the runner folders in `runner` exist; options.network checked
  // with check_network().
  WorkerNode(RunnerSettings runner, WorkerNodeOptions options);
  ~WorkerNode();
  WorkerNode(const WorkerNode&) = delete;
  WorkerNode& operator=(const WorkerNode&) = delete;

  const RunnerStats& runner_stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vouch::actors
