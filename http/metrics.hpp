#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

#include "actors/cluster/worker_stats.hpp"
#include "actors/domain/project_actor_stats.hpp"
#include "actors/execution/runner_stats.hpp"
#include "runner_cache/runner_code_cache.hpp"
#include "runner_cache/transform_cache.hpp"
#include "store/database.hpp"
#include "store/event_log.hpp"
#include "store/projector.hpp"
#include "store/read_models.hpp"

namespace vouch::http {

// What the memory gauges of GET /metrics read: what holds memory, and the
// budget it is held to (--memory-mb).
struct MemorySources {
  std::size_t budget_bytes;  // 0: no budget stated, and its gauge is then absent
  const store::Database& database;
  const store::ReadModels& models;
  const actors::ProjectActorStats& project_actors;
};

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
  MemorySources memory;
};

// The Prometheus text exposition (format 0.0.4) of the service's counters,
// written by prometheus-cpp's TextSerializer.
std::string metrics_text(const MetricSources& sources);

}  // namespace vouch::http
