#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

#include "actors/cluster/worker_stats.hpp"
#include "actors/execution/runner_stats.hpp"
#include "runner_cache/runner_code_cache.hpp"
#include "runner_cache/transform_cache.hpp"
#include "store/event_log.hpp"
#include "store/projector.hpp"

namespace vouch::http {

// What GET /metrics reports on; every counter is read as it is at the scrape.
struct MetricSources {
  const store::EventLog& log;
  const store::Projector& projector;
  const actors::RunnerStats& runner;
  const actors::WorkerStats& workers;
  // This machine's cache of Jest transforms; nullptr when it has none
  // (no bubblewrap, or no executors here), and its metrics are then absent.
  const runner_cache::TransformCache* transform_cache;
  // This machine's V8 code cache of the runner's modules; nullptr when it has
  // none (no isolation, or no executors here), and its metrics are then absent.
  const runner_cache::RunnerCodeCache* code_cache;
  // Answers by status class, indexed by status / 100.
  const std::array<std::atomic<std::uint64_t>, 6>& responses_by_class;
};

// The Prometheus text exposition (format 0.0.4) of the service's counters,
// written by prometheus-cpp's TextSerializer.
std::string metrics_text(const MetricSources& sources);

}  // namespace vouch::http
