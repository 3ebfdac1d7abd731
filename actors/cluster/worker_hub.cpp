#include "actors/cluster/worker_hub.hpp"

#include <algorithm>
#include <array>
#include <deque>
#include <map>

#include "log/log.hpp"

namespace vouch::actors {
namespace {

using Clock = std::chrono::steady_clock;

enum Kind : std::size_t { kGenerate = 0, kRun = 1 };

struct Worker {
  worker_actor handle;
  WorkerOffer offer;
  bool remote = false;
  std::string label;                  // unique: name#id
  std::array<std::size_t, 2> busy{};  // by Kind
  Clock::time_point last_seen = Clock::now();

  std::size_t slots(Kind kind) const {
    return kind == kGenerate ? offer.generators : offer.executors;
  }
};

struct Job {
  Kind kind = kGenerate;
  GenerationTask generation;
  RunTask run;
  caf::typed_response_promise<GenerationDone> generated;
  caf::typed_response_promise<RunDone> ran;
  std::uint64_t worker = 0;   // where it runs; 0 while it waits
  std::uint64_t attempt = 0;  // answers of an earlier attempt are dropped
  int losses = 0;
  Clock::time_point waiting_since = Clock::now();
};

struct WorkerHubState {
  WorkerHubConfig config;
  std::map<std::uint64_t, Worker> workers;  // by id, in order of joining
  std::map<std::uint64_t, Job> jobs;
  std::array<std::deque<std::uint64_t>, 2> queues;  // waiting job ids by Kind
  std::uint64_t next_worker = 1;
  std::uint64_t next_job = 1;
  std::uint64_t next_attempt = 1;
  bool checking = false;  // a heartbeat check is scheduled
  static inline const char* name = "vouch.worker-hub";
};

using Self = worker_hub_actor::stateful_pointer<WorkerHubState>;

std::chrono::milliseconds queue_wait(const WorkerHubState& state, Kind kind) {
  return kind == kGenerate ? state.config.settings->generation_queue_wait
                           : state.config.settings->run_queue_wait;
}

void publish_stats(Self self) {
  auto& state = self->state;
  std::int64_t remote = 0, generators = 0, executors = 0;
  std::array<std::int64_t, 2> in_flight{};
  for (const auto& [id, worker] : state.workers) {
    remote += worker.remote ? 1 : 0;
    generators += worker.offer.generators;
    executors += worker.offer.executors;
    in_flight[kGenerate] += static_cast<std::int64_t>(worker.busy[kGenerate]);
    in_flight[kRun] += static_cast<std::int64_t>(worker.busy[kRun]);
  }
  auto& stats = *state.config.stats;
  stats.remote_workers = remote;
  stats.generator_slots = generators;
  stats.executor_slots = executors;
  stats.generations_in_flight = in_flight[kGenerate];
  stats.runs_in_flight = in_flight[kRun];
  stats.runs_waiting = static_cast<std::int64_t>(state.queues[kRun].size());
  state.config.runner_stats->generations_running = in_flight[kGenerate];
  state.config.runner_stats->generations_waiting =
      static_cast<std::int64_t>(state.queues[kGenerate].size());
}

// Ends the job with `failure` (generation) or `error` (run).
void fail(Self self, std::uint64_t job_id, const base::Error& failure, const std::string& code) {
  auto found = self->state.jobs.find(job_id);
  if (found == self->state.jobs.end()) return;
  auto& job = found->second;
  if (job.kind == kGenerate) {
    GenerationDone done;
    done.failure = job_failure(failure);
    job.generated.deliver(std::move(done));
  } else {
    job.ran.deliver(run_error(code, failure.message));
  }
  self->state.jobs.erase(found);
}

void pump(Self self, Kind kind);

void enqueue(Self self, std::uint64_t job_id, bool front) {
  auto& state = self->state;
  auto& job = state.jobs.at(job_id);
  job.worker = 0;
  job.waiting_since = Clock::now();
  if (front) {
    state.queues[job.kind].push_front(job_id);
  } else {
    state.queues[job.kind].push_back(job_id);
  }
  self->delayed_send(self, queue_wait(state, job.kind), expired_atom_v, job_id);
  pump(self, job.kind);
}

bool offers(const WorkerHubState& state, Kind kind) {
  for (const auto& [id, worker] : state.workers) {
    if (worker.slots(kind) > 0) return true;
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
  if (job.losses >= 2 || !offers(state, job.kind)) {
    ++state.config.stats->jobs_lost;
    log::warn("workers", "a job was lost with its worker and is not tried again: " + why);
    fail(self, job_id,
         base::Error::unavailable("the worker " +
                                  std::string(job.kind == kGenerate ? "generating" : "running") +
                                  " it was lost (" + why + ")"),
         "worker_lost");
    return;
  }
  ++state.config.stats->jobs_retried;
  log::info("workers", "a job lost with its worker goes to another slot: " + why);
  enqueue(self, job_id, true);
}

// The answer of attempt `attempt` of job `job_id`, unless a loss overtook it.
template <class Done>
void finished(Self self, std::uint64_t job_id, std::uint64_t attempt, Done done) {
  auto& state = self->state;
  auto found = state.jobs.find(job_id);
  if (found == state.jobs.end() || found->second.attempt != attempt) return;
  auto& job = found->second;
  const auto kind = job.kind;
  if (auto worker = state.workers.find(job.worker); worker != state.workers.end()) {
    --worker->second.busy[kind];
    worker->second.last_seen = Clock::now();
  }
  if constexpr (std::is_same_v<Done, GenerationDone>) {
    job.generated.deliver(std::move(done));
  } else {
    job.ran.deliver(std::move(done));
  }
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
  const auto kind = job.kind;
  std::string label = "a worker";
  if (auto worker = state.workers.find(job.worker); worker != state.workers.end()) {
    --worker->second.busy[kind];
    label = worker->second.label;
  }
  retry_or_fail(self, job_id, label + " did not answer: " + caf::to_string(error));
  pump(self, kind);
  publish_stats(self);
}

void dispatch(Self self, std::uint64_t job_id, std::uint64_t worker_id) {
  auto& state = self->state;
  auto& job = state.jobs.at(job_id);
  auto& worker = state.workers.at(worker_id);
  ++worker.busy[job.kind];
  job.worker = worker_id;
  job.attempt = state.next_attempt++;
  const auto attempt = job.attempt;
  // No timeout: a lost worker ends the request (down message, heartbeat),
  // and the worker's own limits end every job.
  if (job.kind == kGenerate) {
    self->request(worker.handle, caf::infinite, job.generation)
        .then([self, job_id,
               attempt](GenerationDone& done) { finished(self, job_id, attempt, std::move(done)); },
              [self, job_id, attempt](caf::error& error) {
                unanswered(self, job_id, attempt, error);
              });
  } else {
    job.run.runs_waiting = static_cast<std::uint32_t>(state.queues[kRun].size());
    self->request(worker.handle, caf::infinite, job.run)
        .then([self, job_id,
               attempt](RunDone& done) { finished(self, job_id, attempt, std::move(done)); },
              [self, job_id, attempt](caf::error& error) {
                unanswered(self, job_id, attempt, error);
              });
  }
}

// The worker with the most free slots of `kind`; 0 when none is free.
std::uint64_t free_worker(const WorkerHubState& state, Kind kind) {
  std::uint64_t best = 0;
  std::size_t best_free = 0;
  for (const auto& [id, worker] : state.workers) {
    const auto slots = worker.slots(kind);
    const auto free = slots > worker.busy[kind] ? slots - worker.busy[kind] : 0;
    if (free > best_free) {
      best = id;
      best_free = free;
    }
  }
  return best;
}

void pump(Self self, Kind kind) {
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
  pump(self, kGenerate);
  pump(self, kRun);
}

void join(Self self, worker_actor handle, WorkerOffer offer, bool remote) {
  auto& state = self->state;
  if (!handle) return;
  for (auto& [id, worker] : state.workers) {
    if (worker.handle == handle) {  // a remote worker's periodic join: it is there
      worker.last_seen = Clock::now();
      return;
    }
  }
  const auto id = state.next_worker++;
  Worker worker{handle, offer, remote, offer.name + "#" + std::to_string(id), {}, Clock::now()};
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
  pump(self, kGenerate);
  pump(self, kRun);
}

template <class Task, class Done>
caf::typed_response_promise<Done> accept(Self self, Kind kind, Task& task) {
  auto& state = self->state;
  const auto job_id = state.next_job++;
  Job job;
  job.kind = kind;
  caf::typed_response_promise<Done> promise = self->template make_response_promise<Done>();
  if constexpr (std::is_same_v<Task, GenerationTask>) {
    job.generation = std::move(task);
    job.generated = promise;
  } else {
    job.run = std::move(task);
    job.ran = promise;
  }
  state.jobs.emplace(job_id, std::move(job));
  enqueue(self, job_id, false);
  return promise;
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
        return accept<GenerationTask, GenerationDone>(self, kGenerate, task);
      },
      [self](RunTask& task) -> caf::result<RunDone> {
        return accept<RunTask, RunDone>(self, kRun, task);
      },
      [self](join_atom, worker_actor& handle, WorkerOffer& offer) {
        join(self, std::move(handle), std::move(offer), true);
      },
      [self](expired_atom, std::uint64_t job_id) {
        auto& state = self->state;
        auto found = state.jobs.find(job_id);
        if (found == state.jobs.end() || found->second.attempt != 0) return;  // sent or ended
        auto& job = found->second;
        const auto wait = queue_wait(state, job.kind);
        if (Clock::now() - job.waiting_since < wait) return;  // an earlier wait's timer
        auto& queue = state.queues[job.kind];
        queue.erase(std::remove(queue.begin(), queue.end(), job_id), queue.end());
        const auto seconds = std::to_string(wait.count() / 1000);
        if (job.kind == kGenerate) {
          ++state.config.runner_stats->generations_refused;
          const auto retry = std::max<unsigned>(
              1, static_cast<unsigned>(state.config.settings->generation_budget.count() / 1000));
          fail(self, job_id,
               base::Error::unavailable("every test generator is busy; try again later", retry),
               {});
        } else {
          fail(self, job_id,
               base::Error::unavailable("no runner was free within " + seconds + " s"),
               "no_runner");
        }
        publish_stats(self);
      },
      [self](heartbeat_atom) {
        auto& state = self->state;
        const auto now = Clock::now();
        std::vector<std::uint64_t> silent;
        for (const auto& [id, worker] : state.workers) {
          if (worker.remote && now - worker.last_seen > state.config.heartbeat_timeout) {
            silent.push_back(id);
          }
        }
        for (const auto id : silent) {
          lose(self, id,
               "silent for " + std::to_string(state.config.heartbeat_timeout.count()) + " ms");
        }
        state.checking = std::any_of(state.workers.begin(), state.workers.end(),
                                     [](const auto& entry) { return entry.second.remote; });
        if (state.checking) {
          self->delayed_send(self, state.config.heartbeat_check, heartbeat_atom_v);
        }
      },
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
