#include "http/metrics.hpp"

#include <prometheus/client_metric.h>
#include <prometheus/metric_family.h>
#include <prometheus/text_serializer.h>

#include <utility>
#include <vector>

#include "log/log.hpp"

namespace vouch::http {
namespace {

using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;

// A family of one sample without labels.
MetricFamily single(std::string name, MetricType type, std::string help, double value) {
  ClientMetric sample;
  (type == MetricType::Counter ? sample.counter.value : sample.gauge.value) = value;
  return MetricFamily{std::move(name), std::move(help), type, {std::move(sample)}};
}

// A labelled sample; the serializer writes the value its family's type names.
ClientMetric labelled(std::vector<ClientMetric::Label> labels, double value) {
  ClientMetric sample;
  sample.label = std::move(labels);
  sample.counter.value = value;
  sample.gauge.value = value;
  return sample;
}

}  // namespace

std::string metrics_text(const MetricSources& sources) {
  constexpr auto kCounter = MetricType::Counter;
  constexpr auto kGauge = MetricType::Gauge;
  const auto log = sources.log.stats();
  const auto storage = sources.log.storage_health();
  const auto& runner = sources.runner;
  const auto& workers = sources.workers;

  MetricFamily responses{"vouch_http_responses_total", "answers by status class", kCounter, {}};
  for (std::size_t i = 1; i < sources.responses_by_class.size(); ++i) {
    responses.metric.push_back(labelled({{"class", std::to_string(i) + "xx"}},
                                        static_cast<double>(sources.responses_by_class[i].load())));
  }
  MetricFamily slots{"vouch_worker_slots", "slots each worker offers, by kind", kGauge, {}};
  for (const auto& [name, offered] : workers.slots()) {
    const std::string remote = offered.remote ? "true" : "false";
    slots.metric.push_back(
        labelled({{"worker", name}, {"kind", "generate"}, {"remote", remote}}, offered.generators));
    slots.metric.push_back(
        labelled({{"worker", name}, {"kind", "run"}, {"remote", remote}}, offered.executors));
  }

  std::vector<MetricFamily> families{
      std::move(responses),
      single("vouch_log_appends_total", kCounter, "appends to the event log", log.appends),
      single("vouch_log_syncs_total", kCounter, "fsyncs of the event log", log.syncs),
      single("vouch_log_events_total", kCounter, "events appended", log.events),
      single("vouch_log_conflicts_total", kCounter, "appends refused for a stale expected version",
             log.conflicts),
      single("vouch_log_position", kGauge, "position of the log's last event",
             sources.log.last_position()),
      single("vouch_storage_writable", kGauge,
             "1 while the data folder takes writes, 0 while they are refused (degraded)",
             storage.writable ? 1 : 0),
      single("vouch_storage_out_of_space", kGauge,
             "1 while writes are refused because the data folder's disk is full",
             storage.out_of_space ? 1 : 0),
      single("vouch_storage_faults_total", kCounter,
             "times writes stopped after a failed write or a storage error", storage.faults),
      single("vouch_storage_recoveries_total", kCounter, "times writes resumed after a fault",
             storage.recoveries),
      single("vouch_storage_info_log_lines_dropped_total", kCounter,
             "lines of RocksDB's info log (the data folder's LOG) dropped whole on a full disk",
             storage.info_log_lines_dropped),
      single("vouch_log_lines_dropped_total", kCounter,
             "log lines dropped whole because stderr could not take them (e.g. a full disk)",
             static_cast<double>(log::dropped_lines())),
      single("vouch_projection_checkpoint", kGauge, "last position the read models folded",
             sources.projector.checkpoint()),
      single("vouch_generations_running", kGauge, "generations holding a generator",
             runner.generations_running.load()),
      single("vouch_generations_waiting", kGauge, "generations waiting for a generator",
             runner.generations_waiting.load()),
      single("vouch_generations_refused_total", kCounter,
             "generations refused with 503: no generator free in time",
             runner.generations_refused.load()),
      single("vouch_runs_executing", kGauge, "runs holding a runner", runner.runs_executing.load()),
      single("vouch_runs_waiting", kGauge, "runs waiting for a runner", runner.runs_waiting.load()),
      single("vouch_runners_ready", kGauge, "warm runners waiting for a run",
             runner.runners_ready.load()),
      single("vouch_runners_starting", kGauge, "runners starting", runner.runners_starting.load()),
      single("vouch_runner_start_failures_total", kCounter, "runners that failed to start",
             runner.runner_start_failures.load()),
      single("vouch_workers_remote", kGauge, "remote workers joined",
             workers.remote_workers.load()),
      single("vouch_worker_generator_slots", kGauge, "generator slots, local and remote",
             workers.generator_slots.load()),
      single("vouch_worker_executor_slots", kGauge, "executor slots, local and remote",
             workers.executor_slots.load()),
      single("vouch_worker_generations_in_flight", kGauge, "generations handed to workers",
             workers.generations_in_flight.load()),
      single("vouch_worker_runs_in_flight", kGauge, "runs handed to workers",
             workers.runs_in_flight.load()),
      single("vouch_worker_runs_waiting", kGauge, "runs waiting for a worker's slot",
             workers.runs_waiting.load()),
      single("vouch_worker_jobs_retried_total", kCounter,
             "jobs lost with their worker and sent again", workers.jobs_retried.load()),
      single("vouch_worker_jobs_lost_total", kCounter, "jobs lost twice, ended as worker_lost",
             workers.jobs_lost.load()),
      single("vouch_workers_lost_total", kCounter, "workers lost", workers.workers_lost.load()),
      std::move(slots),
  };
  if (sources.transform_cache) {
    const auto cache = sources.transform_cache->stats();
    families.insert(
        families.end(),
        {single("vouch_transform_cache_bytes", kGauge,
                "bytes of Jest transforms held for projects' next runs", cache.bytes),
         single("vouch_transform_cache_scopes", kGauge,
                "projects (and the runners' warm-up) with transforms held", cache.scopes),
         single("vouch_transform_cache_files_lent_total", kCounter,
                "transforms copied into runs before they start", cache.files_lent),
         single("vouch_transform_cache_files_kept_total", kCounter,
                "transforms taken from runs after they end", cache.files_kept),
         single("vouch_transform_cache_refusals_total", kCounter,
                "runs whose leftovers were refused (a link, past a limit)", cache.refused)});
  }
  if (sources.code_cache) {
    const auto cache = sources.code_cache->stats();
    families.insert(
        families.end(),
        {single("vouch_runner_code_cache_bytes", kGauge,
                "bytes of V8 code cache held for runners started with runs waiting", cache.bytes),
         single("vouch_runner_code_cache_lent_total", kCounter,
                "runners started with the code cache of the runner's modules", cache.lent)});
  }
  return prometheus::TextSerializer().Serialize(families);
}

}  // namespace vouch::http
