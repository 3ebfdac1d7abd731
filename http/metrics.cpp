#include "http/metrics.hpp"

#include <prometheus/client_metric.h>
#include <prometheus/metric_family.h>
#include <prometheus/text_serializer.h>
#include <unistd.h>

#include <fstream>
#include <initializer_list>
#include <optional>
#include <utility>
#include <vector>

#include "log/log.hpp"

namespace vouch::http {
namespace {

using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;
constexpr auto kCounter = MetricType::Counter;
constexpr auto kGauge = MetricType::Gauge;

// One row of a table of metrics: a counter or a gauge without labels. Its
// name says which: counters end in _total, as Prometheus names them.
struct Row {
  template <class Value>
  Row(const char* name, const char* help, const Value& value)
      : name(name), help(help), value(static_cast<double>(value)) {}

  std::string name;
  std::string help;
  double value;
};

// Appends a family of one sample for each row.
void add(std::vector<MetricFamily>& families, std::initializer_list<Row> rows) {
  for (const Row& row : rows) {
    const bool counter = row.name.ends_with("_total");
    ClientMetric sample;
    (counter ? sample.counter.value : sample.gauge.value) = row.value;
    families.push_back(MetricFamily{row.name, row.help, counter ? kCounter : kGauge, {sample}});
  }
}

// A labelled sample; the serializer writes the value its family's type names.
ClientMetric labelled(std::vector<ClientMetric::Label> labels, double value) {
  ClientMetric sample;
  sample.label = std::move(labels);
  sample.counter.value = value;
  sample.gauge.value = value;
  return sample;
}

// This process's resident set (RSS) in bytes; nullopt when /proc cannot tell.
std::optional<double> resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  double size_pages = 0;
  double resident_pages = 0;
  if (!(statm >> size_pages >> resident_pages)) return std::nullopt;
  return resident_pages * static_cast<double>(::sysconf(_SC_PAGESIZE));
}

void add_responses(std::vector<MetricFamily>& families, const MetricSources& sources) {
  MetricFamily responses{"vouch_http_responses_total", "answers by status class", kCounter, {}};
  for (std::size_t i = 1; i < sources.responses_by_class.size(); ++i) {
    responses.metric.push_back(labelled({{"class", std::to_string(i) + "xx"}},
                                        static_cast<double>(sources.responses_by_class[i].load())));
  }
  families.push_back(std::move(responses));
}

void add_log(std::vector<MetricFamily>& families, const MetricSources& sources) {
  const auto log = sources.log.stats();
  add(families,
      {{"vouch_log_appends_total", "appends to the event log", log.appends},
       {"vouch_log_syncs_total", "fsyncs of the event log", log.syncs},
       {"vouch_log_events_total", "events appended", log.events},
       {"vouch_log_conflicts_total", "appends refused for a stale expected version", log.conflicts},
       {"vouch_log_position", "position of the log's last event", sources.log.last_position()},
       {"vouch_projection_checkpoint", "last position the read models folded",
        sources.projector.checkpoint()}});
}

// Whether the data folder takes writes (see store::Database::write).
void add_storage(std::vector<MetricFamily>& families, const store::StorageHealth& storage) {
  add(families,
      {{"vouch_storage_writable",
        "1 while the data folder takes writes, 0 while they are refused (degraded)",
        storage.writable ? 1 : 0},
       {"vouch_storage_out_of_space",
        "1 while writes are refused because the data folder's disk is full, or too full to write "
        "safely",
        storage.out_of_space ? 1 : 0},
       {"vouch_storage_faults_total",
        "times writes stopped: a disk too full to write safely, a failed write or a storage error",
        storage.faults},
       {"vouch_storage_recoveries_total", "times writes resumed after a fault", storage.recoveries},
       {"vouch_storage_info_log_lines_dropped_total",
        "lines of RocksDB's info log (the data folder's LOG) dropped whole on a full disk",
        storage.info_log_lines_dropped},
       {"vouch_log_lines_dropped_total",
        "log lines dropped whole because stderr could not take them (e.g. a full disk)",
        log::dropped_lines()}});
}

void add_runner(std::vector<MetricFamily>& families, const actors::RunnerStats& runner) {
  add(families,
      {{"vouch_generations_running", "generations holding a generator", runner.generations_running},
       {"vouch_generations_waiting", "generations waiting for a generator",
        runner.generations_waiting},
       {"vouch_generations_refused_total",
        "generations refused with 503: no generator free in time", runner.generations_refused},
       {"vouch_runs_executing", "runs holding a runner", runner.runs_executing},
       {"vouch_runs_waiting", "runs waiting for a runner", runner.runs_waiting},
       {"vouch_runners_ready", "warm runners waiting for a run", runner.runners_ready},
       {"vouch_runners_starting", "runners starting", runner.runners_starting},
       {"vouch_runner_start_failures_total", "runners that failed to start",
        runner.runner_start_failures}});
}

void add_workers(std::vector<MetricFamily>& families, const actors::WorkerStats& workers) {
  add(families,
      {{"vouch_workers_remote", "remote workers joined", workers.remote_workers},
       {"vouch_worker_generator_slots", "generator slots, local and remote",
        workers.generator_slots},
       {"vouch_worker_executor_slots", "executor slots, local and remote", workers.executor_slots},
       {"vouch_worker_generations_in_flight", "generations handed to workers",
        workers.generations_in_flight},
       {"vouch_worker_runs_in_flight", "runs handed to workers", workers.runs_in_flight},
       {"vouch_worker_runs_waiting", "runs waiting for a worker's slot", workers.runs_waiting},
       {"vouch_worker_jobs_retried_total", "jobs lost with their worker and sent again",
        workers.jobs_retried},
       {"vouch_worker_jobs_lost_total", "jobs lost twice, ended as worker_lost", workers.jobs_lost},
       {"vouch_workers_lost_total", "workers lost", workers.workers_lost}});
  MetricFamily slots{"vouch_worker_slots", "slots each worker offers, by kind", kGauge, {}};
  for (const auto& [name, offered] : workers.slots()) {
    const std::string remote = offered.remote ? "true" : "false";
    slots.metric.push_back(
        labelled({{"worker", name}, {"kind", "generate"}, {"remote", remote}}, offered.generators));
    slots.metric.push_back(
        labelled({{"worker", name}, {"kind", "run"}, {"remote", remote}}, offered.executors));
  }
  families.push_back(std::move(slots));
}

void add_memory(std::vector<MetricFamily>& families, const MemorySources& memory) {
  if (const auto resident = resident_bytes()) {
    add(families,
        {{"vouch_memory_resident_bytes", "resident set of the vouchd process (RSS)", *resident}});
  }
  if (memory.budget_bytes != 0) {
    add(families, {{"vouch_memory_budget_bytes",
                    "the memory budget (--memory-mb) of what grows with data and load",
                    memory.budget_bytes}});
  }
  const auto rocksdb = memory.database.memory_use();
  add(families,
      {{"vouch_rocksdb_block_cache_bytes",
        "bytes charged to RocksDB's block cache, the memtables' share included",
        rocksdb.cache_bytes},
       {"vouch_rocksdb_block_cache_capacity_bytes", "capacity of RocksDB's block cache",
        rocksdb.cache_capacity},
       {"vouch_rocksdb_memtable_bytes",
        "bytes of RocksDB's memtables, as its write buffer manager counts them",
        rocksdb.memtable_bytes},
       {"vouch_rocksdb_memtable_limit_bytes",
        "memtable bytes at which RocksDB's write buffer manager flushes", rocksdb.memtable_limit},
       {"vouch_read_memo_bytes",
        "bytes of answers the read models keep in memory, as they count them (stored sizes)",
        memory.models.memo_bytes()},
       {"vouch_project_actors_live", "project actors alive", memory.project_actors.live},
       {"vouch_project_actors_max",
        "project actors alive at once, at most (0: no cap); more stops the least recently used",
        memory.project_actors.max_live}});
}

void add_caches(std::vector<MetricFamily>& families, const MetricSources& sources) {
  if (sources.transform_cache) {
    const auto cache = sources.transform_cache->stats();
    add(families, {{"vouch_transform_cache_bytes",
                    "bytes of Jest transforms held for projects' next runs", cache.bytes},
                   {"vouch_transform_cache_scopes",
                    "projects (and the runners' warm-up) with transforms held", cache.scopes},
                   {"vouch_transform_cache_files_lent_total",
                    "transforms copied into runs before they start", cache.files_lent},
                   {"vouch_transform_cache_files_kept_total",
                    "transforms taken from runs after they end", cache.files_kept},
                   {"vouch_transform_cache_refusals_total",
                    "runs whose leftovers were refused (a link, past a limit)", cache.refused}});
  }
  if (sources.code_cache) {
    const auto cache = sources.code_cache->stats();
    add(families,
        {{"vouch_runner_code_cache_bytes",
          "bytes of V8 code cache held for runners started with runs waiting", cache.bytes},
         {"vouch_runner_code_cache_lent_total",
          "runners started with the code cache of the runner's modules", cache.lent}});
  }
}

}  // namespace

std::string metrics_text(const MetricSources& sources) {
  std::vector<MetricFamily> families;
  add_responses(families, sources);
  add_log(families, sources);
  add_storage(families, sources.log.storage_health());
  add_runner(families, sources.runner);
  add_workers(families, sources.workers);
  add_memory(families, sources.memory);
  add_caches(families, sources);
  return prometheus::TextSerializer().Serialize(families);
}

}  // namespace vouch::http
