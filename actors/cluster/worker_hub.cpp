#include "actors/cluster/worker_hub.hpp"

#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <utility>

#include "actors/cluster/hub_job.hpp"
#include "base/overloaded.hpp"
#include "log/log.hpp"

namespace vouch::actors {
namespace {

// The hub reads time from its actor clock, never from the machine's, so that
// a test scheduler moves it.
using TimePoint = caf::actor_clock::time_point;

struct Worker {
  worker_actor handle;
  WorkerOffer offer;
  bool remote = false;
  std::string label;                           // unique: name#id
  std::array<std::size_t, kJobKinds> slots{};  // by JobKind
  std::array<std::size_t, kJobKinds> busy{};   // by JobKind
  TimePoint last_seen;

  std::size_t free_slots(JobKind kind) const {
    return slots[kind] > busy[kind] ? slots[kind] - busy[kind] : 0;
  }
};

struct WorkerHubState {
  WorkerHubConfig config;
  std::map<std::uint64_t, Worker> workers;  // by id, in order of joining
  std::map<std::uint64_t, HubJob> jobs;
  std::array<std::deque<std::uint64_t>, kJobKinds> queues;  // waiting job ids by JobKind
  std::uint64_t next_worker = 1;
  std::uint64_t next_job = 1;
  std::uint64_t next_attempt = 1;
  bool checking = false;  // a heartbeat check is scheduled
  static inline const char* name = "vouch.worker-hub";
};

using Self = worker_hub_actor::stateful_pointer<WorkerHubState>;

std::chrono::milliseconds queue_wait(const RunnerSettings& settings, const JobWork& work) {
  return std::visit(base::Overloaded{
                        [&](const GenerationWork&) { return settings.generation_queue_wait; },
                        [&](const RunWork&) { return settings.run_queue_wait; },
                    },
                    work);
}

void publish_stats(Self self) {
  auto& state = self->state;
  std::int64_t remote = 0, generators = 0, executors = 0;
  std::array<std::int64_t, kJobKinds> in_flight{};
  for (const auto& [id, worker] : state.workers) {
    remote += worker.remote ? 1 : 0;
    generators += worker.offer.generators;
    executors += worker.offer.executors;
    for (JobKind kind = 0; kind < kJobKinds; ++kind) {
      in_flight[kind] += static_cast<std::int64_t>(worker.busy[kind]);
    }
  }
  constexpr auto kGeneration = kind_of<GenerationWork>;
  constexpr auto kRun = kind_of<RunWork>;
  auto& stats = *state.config.stats;
  stats.remote_workers = remote;
  stats.generator_slots = generators;
  stats.executor_slots = executors;
  stats.generations_in_flight = in_flight[kGeneration];
  stats.runs_in_flight = in_flight[kRun];
  stats.runs_waiting = static_cast<std::int64_t>(state.queues[kRun].size());
  state.config.runner_stats->generations_running = in_flight[kGeneration];
  state.config.runner_stats->generations_waiting =
      static_cast<std::int64_t>(state.queues[kGeneration].size());
}

// Ends the job: a generation with `failure`, a run with the error `run_code`
// and the failure's message.
void fail(Self self, std::uint64_t job_id, const base::Error& failure,
          const std::string& run_code) {
  auto found = self->state.jobs.find(job_id);
  if (found == self->state.jobs.end()) return;
  std::visit(base::Overloaded{
                 [&](GenerationWork& generation) {
                   GenerationDone done;
                   done.failure = job_failure(failure);
                   generation.promise.deliver(std::move(done));
                 },
                 [&](RunWork& run) { run.promise.deliver(run_error(run_code, failure.message)); },
             },
             found->second.work);
  self->state.jobs.erase(found);
}

void pump(Self self, JobKind kind);

void enqueue(Self self, std::uint64_t job_id, bool front) {
  auto& state = self->state;
  auto& job = state.jobs.at(job_id);
  const auto kind = job.kind();
  job.worker = 0;
  job.waiting_since = self->clock().now();
  if (front) {
    state.queues[kind].push_front(job_id);
  } else {
    state.queues[kind].push_back(job_id);
  }
  self->delayed_send(self, queue_wait(*state.config.settings, job.work), expired_atom_v, job_id);
  pump(self, kind);
}

bool offers(const WorkerHubState& state, JobKind kind) {
  for (const auto& [id, worker] : state.workers) {
    if (worker.slots[kind] > 0) return true;
  }
  return false;
}

// The job's worker is gone (or its answer will never come): once more on
// another slot, or the end of it.
void retry_or_fail(Self self, std::uint64_t job_id, const std::string& why) {
  auto& state = self->state;
  auto& job = state.jobs.at(job_id);
  ++job.losses;
  job.attempt = 0;
  if (job.losses >= 2 || !offers(state, job.kind())) {
    ++state.config.stats->jobs_lost;
    log::warn("workers", "a job was lost with its worker and is not tried again: " + why);
    const std::string doing = std::visit(base::Overloaded{
                                             [](const GenerationWork&) { return "generating"; },
                                             [](const RunWork&) { return "running"; },
                                         },
                                         job.work);
    fail(self, job_id,
         base::Error::unavailable("the worker " + doing + " it was lost (" + why + ")"),
         "worker_lost");
    return;
  }
  ++state.config.stats->jobs_retried;
  log::info("workers", "a job lost with its worker goes to another slot: " + why);
  enqueue(self, job_id, true);
}

// The answer of attempt `attempt` of job `job_id`, unless a loss overtook it.
template <class Work>
void finished(Self self, std::uint64_t job_id, std::uint64_t attempt, typename Work::Done done) {
  auto& state = self->state;
  auto found = state.jobs.find(job_id);
  if (found == state.jobs.end() || found->second.attempt != attempt) return;
  auto& job = found->second;
  const auto kind = job.kind();
  if (auto worker = state.workers.find(job.worker); worker != state.workers.end()) {
    --worker->second.busy[kind];
    worker->second.last_seen = self->clock().now();
  }
  // The attempt was sent as a Work (dispatch), so the job holds one.
  std::get<Work>(job.work).promise.deliver(std::move(done));
  state.jobs.erase(found);
  pump(self, kind);
  publish_stats(self);
}

// A request that ended without an answer: the worker's end, or a message it
// could not take. The job is treated as lost with it.
void unanswered(Self self, std::uint64_t job_id, std::uint64_t attempt, const caf::error& error) {
  auto& state = self->state;
  auto found = state.jobs.find(job_id);
  if (found == state.jobs.end() || found->second.attempt != attempt) return;
  auto& job = found->second;
  const auto kind = job.kind();
  std::string label = "a worker";
  if (auto worker = state.workers.find(job.worker); worker != state.workers.end()) {
    --worker->second.busy[kind];
    label = worker->second.label;
  }
  retry_or_fail(self, job_id, label + " did not answer: " + caf::to_string(error));
  pump(self, kind);
  publish_stats(self);
}

// Sends attempt `attempt` of a job of type Work to `worker`. No timeout: a
// lost worker ends the request (down message, heartbeat), and the worker's
// own limits end every job.
template <class Work>
void request(Self self, const worker_actor& worker, std::uint64_t job_id, std::uint64_t attempt,
             const typename Work::Task& task) {
  self->request(worker, caf::infinite, task)
      .then(
          [self, job_id, attempt](typename Work::Done& done) {
            finished<Work>(self, job_id, attempt, std::move(done));
          },
          [self, job_id, attempt](caf::error& error) { unanswered(self, job_id, attempt, error); });
}

void dispatch(Self self, std::uint64_t job_id, std::uint64_t worker_id) {
  auto& state = self->state;
  auto& job = state.jobs.at(job_id);
  auto& worker = state.workers.at(worker_id);
  ++worker.busy[job.kind()];
  job.worker = worker_id;
  job.attempt = state.next_attempt++;
  const auto attempt = job.attempt;
  std::visit(base::Overloaded{
                 [&](GenerationWork& generation) {
                   request<GenerationWork>(self, worker.handle, job_id, attempt, generation.task);
                 },
                 [&](RunWork& run) {
                   run.task.runs_waiting =
                       static_cast<std::uint32_t>(state.queues[kind_of<RunWork>].size());
                   request<RunWork>(self, worker.handle, job_id, attempt, run.task);
                 },
             },
             job.work);
}

// The worker with the most free slots of `kind`; 0 when none is free.
std::uint64_t free_worker(const WorkerHubState& state, JobKind kind) {
  std::uint64_t best = 0;
  std::size_t best_free = 0;
  for (const auto& [id, worker] : state.workers) {
    const auto free = worker.free_slots(kind);
    if (free > best_free) {
      best = id;
      best_free = free;
    }
  }
  return best;
}

void pump(Self self, JobKind kind) {
  auto& state = self->state;
  auto& queue = state.queues[kind];
  while (!queue.empty()) {
    const auto job_id = queue.front();
    auto job = state.jobs.find(job_id);
    if (job == state.jobs.end() || job->second.worker != 0 || job->second.attempt != 0) {
      queue.pop_front();  // ended, or already sent
      continue;
    }
    const auto worker = free_worker(state, kind);
    if (worker == 0) break;
    queue.pop_front();
    dispatch(self, job_id, worker);
  }
  publish_stats(self);
}

void pump_all(Self self) {
  for (JobKind kind = 0; kind < kJobKinds; ++kind) pump(self, kind);
}

void lose(Self self, std::uint64_t worker_id, const std::string& why) {
  auto& state = self->state;
  auto found = state.workers.find(worker_id);
  if (found == state.workers.end()) return;
  const auto label = found->second.label;
  log::warn("workers", "lost worker " + label + ": " + why, {{"worker", label}});
  ++state.config.stats->workers_lost;
  state.config.stats->remove_slots(label);
  self->demonitor(found->second.handle.address());
  state.workers.erase(found);
  std::vector<std::uint64_t> orphans;
  for (const auto& [id, job] : state.jobs) {
    if (job.worker == worker_id && job.attempt != 0) orphans.push_back(id);
  }
  for (const auto id : orphans) retry_or_fail(self, id, "worker " + label + " " + why);
  pump_all(self);
}

void join(Self self, worker_actor handle, WorkerOffer offer, bool remote) {
  auto& state = self->state;
  if (!handle) return;
  const auto now = self->clock().now();
  for (auto& [id, worker] : state.workers) {
    if (worker.handle == handle) {  // a remote worker's periodic join: it is there
      worker.last_seen = now;
      return;
    }
  }
  const auto id = state.next_worker++;
  Worker worker{handle, offer, remote, offer.name + "#" + std::to_string(id), slots_by_kind(offer),
                {},     now};
  log::info("workers",
            "worker " + worker.label + " joined with " + std::to_string(offer.generators) +
                " generator and " + std::to_string(offer.executors) + " executor slots",
            {{"worker", worker.label}});
  state.config.stats->set_slots(worker.label, {offer.generators, offer.executors, remote});
  if (remote) self->monitor(handle);
  state.workers.emplace(id, std::move(worker));
  if (remote && !state.checking) {
    state.checking = true;
    self->delayed_send(self, state.config.heartbeat_check, heartbeat_atom_v);
  }
  pump_all(self);
}

template <class Work>
caf::typed_response_promise<typename Work::Done> accept(Self self, typename Work::Task& task) {
  auto& state = self->state;
  const auto job_id = state.next_job++;
  auto promise = self->template make_response_promise<typename Work::Done>();
  state.jobs.emplace(job_id, HubJob{Work{std::move(task), promise}});
  enqueue(self, job_id, false);
  return promise;
}

// A job waited in line past its queue wait: it fails, as a generation the
// coordinator turns into 503 with Retry-After, or as a run error `no_runner`.
void expire(Self self, std::uint64_t job_id) {
  auto& state = self->state;
  auto found = state.jobs.find(job_id);
  if (found == state.jobs.end() || found->second.attempt != 0) return;  // sent or ended
  auto& job = found->second;
  const auto wait = queue_wait(*state.config.settings, job.work);
  if (self->clock().now() - job.waiting_since < wait) return;  // an earlier wait's timer
  auto& queue = state.queues[job.kind()];
  queue.erase(std::remove(queue.begin(), queue.end(), job_id), queue.end());
  auto [failure, run_code] = std::visit(
      base::Overloaded{
          [&](const GenerationWork&) {
            ++state.config.runner_stats->generations_refused;
            const auto retry = std::max<unsigned>(
                1, static_cast<unsigned>(state.config.settings->generation_budget.count() / 1000));
            return std::pair{
                base::Error::unavailable("every test generator is busy; try again later", retry),
                std::string{}};
          },
          [&](const RunWork&) {
            return std::pair{base::Error::unavailable("no runner was free within " +
                                                      std::to_string(wait.count() / 1000) + " s"),
                             std::string{"no_runner"}};
          },
      },
      job.work);
  fail(self, job_id, failure, run_code);
  publish_stats(self);
}

// Drops the remote workers silent for longer than the heartbeat timeout, and
// looks again later while any remote worker is left.
void check_heartbeats(Self self) {
  auto& state = self->state;
  const auto now = self->clock().now();
  std::vector<std::uint64_t> silent;
  for (const auto& [id, worker] : state.workers) {
    if (worker.remote && now - worker.last_seen > state.config.heartbeat_timeout) {
      silent.push_back(id);
    }
  }
  for (const auto id : silent) {
    lose(self, id, "silent for " + std::to_string(state.config.heartbeat_timeout.count()) + " ms");
  }
  state.checking = std::any_of(state.workers.begin(), state.workers.end(),
                               [](const auto& entry) { return entry.second.remote; });
  if (state.checking) self->delayed_send(self, state.config.heartbeat_check, heartbeat_atom_v);
}

worker_hub_actor::behavior_type worker_hub(Self self, WorkerHubConfig config) {
  self->state.config = std::move(config);
  auto& state = self->state;
  if (state.config.local &&
      (state.config.local_offer.generators > 0 || state.config.local_offer.executors > 0)) {
    join(self, state.config.local, state.config.local_offer, false);
  }
  publish_stats(self);
  self->set_down_handler([self](caf::down_msg& down) {
    for (const auto& [id, worker] : self->state.workers) {
      if (worker.handle.address() == down.source) {
        lose(self, id, "disconnected (" + caf::to_string(down.reason) + ")");
        return;
      }
    }
  });
  return {
      [self](GenerationTask& task) -> caf::result<GenerationDone> {
        return accept<GenerationWork>(self, task);
      },
      [self](RunTask& task) -> caf::result<RunDone> { return accept<RunWork>(self, task); },
      [self](join_atom, worker_actor& handle, WorkerOffer& offer) {
        join(self, std::move(handle), std::move(offer), true);
      },
      [self](expired_atom, std::uint64_t job_id) { expire(self, job_id); },
      [self](heartbeat_atom) { check_heartbeats(self); },
  };
}

worker_gate_actor::behavior_type worker_gate(worker_gate_actor::pointer self,
                                             worker_hub_actor hub) {
  return {
      [self, hub](join_atom, worker_actor& handle, WorkerOffer& offer) {
        self->send(hub, join_atom_v, std::move(handle), std::move(offer));
      },
  };
}

}  // namespace

worker_hub_actor spawn_worker_hub(caf::actor_system& system, WorkerHubConfig config) {
  return system.spawn(worker_hub, std::move(config));
}

worker_gate_actor spawn_worker_gate(caf::actor_system& system, worker_hub_actor hub) {
  return system.spawn(worker_gate, std::move(hub));
}

}  // namespace vouch::actors
