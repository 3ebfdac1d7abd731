#include "actors/execution/executor_pool.hpp"

#include <deque>
#include <unordered_map>

#include "actors/errors.hpp"
#include "actors/execution/runner_protocol.hpp"
#include "base/ids.hpp"
#include "log/log.hpp"
#include "runner_cache/runner_code_cache.hpp"
#include "runner_cache/transform_cache.hpp"

namespace vouch::actors {
namespace {

constexpr std::chrono::seconds kReadyTimeout{60};
constexpr std::chrono::seconds kRetryAfterFailure{2};
constexpr std::uint64_t kBackOffOver = 0;  // expired_atom's ticket for the end of a back-off

struct Request {
  std::string node_major;
  std::string node_path;  // the run's dependency set, "" for none
  caf::typed_response_promise<WarmRunner> promise;
  bool waiting = true;  // false once a runner is being started for it
};

void discard(const WarmRunner& runner) {
  runner.process->kill();
  std::error_code ec;
  std::filesystem::remove_all(runner.workdir, ec);
}

struct ExecutorPoolState {
  const RunnerSettings* settings = nullptr;
  process::ProcessHost* host = nullptr;
  RunnerStats* stats = nullptr;
  std::deque<WarmRunner> ready;  // default Node.js version
  std::size_t warming = 0;       // default-version runners starting for the pool
  std::size_t busy = 0;          // slots held by runs
  std::uint64_t next_ticket = 1;
  std::deque<std::uint64_t> queue;
  std::unordered_map<std::uint64_t, Request> requests;
  // Runner starts under way: for a request (its ticket), or for the pool (0).
  std::unordered_map<std::uint64_t, std::uint64_t> starts;
  bool backing_off = false;
  // Runs waiting for a slot before they reach this pool (at the hub), as the
  // latest acquire told.
  std::uint32_t runs_waiting_elsewhere = 0;
  static inline const char* name = "vouch.executor-pool";

  // The pool's end ends the runners still waiting (CAF destroys the state
  // when the actor terminates).
  ~ExecutorPoolState() {
    for (const auto& runner : ready) discard(runner);
  }
};

using Self = executor_pool_actor::stateful_pointer<ExecutorPoolState>;

// A runner sees one dependency set at most: the run's own, bound read-only
// into its sandbox (the cache that holds every set stays hidden).
void start_runner(Self self, const std::string& major, const std::string& node_path,
                  std::uint64_t for_request) {
  auto& state = self->state;
  const auto start = state.next_ticket++;
  state.starts[start] = for_request;
  const auto version = state.settings->node_versions.find(major);
  if (version == state.settings->node_versions.end()) {  // a worker without the server's majors
    self->send(self, ready_atom_v, start,
               RunnerStart{std::nullopt, "this machine has no Node.js " + major});
    return;
  }
  const auto& node = version->second;
  const auto workdir = state.settings->work_root / ("run-" + base::new_id(""));
  std::error_code ec;
  std::filesystem::create_directories(workdir, ec);
  // With runs already waiting (here or at the hub), this start is on their
  // path: load Jest without priming it (the run is then Jest's first, yet done
  // sooner than after a priming round). With time to spare, prime it fully.
  std::vector<std::string> args;
  if (for_request != 0 || !state.queue.empty() || state.runs_waiting_elsewhere > 0) {
    args = {"--prime-rounds", "0"};
  }
  // The warm-up's transforms, kept from an earlier runner when it said it was
  // ready (before any job: only run.js had run), spare this one loading Babel.
  auto cache = args.empty() ? state.settings->transform_cache : nullptr;
  if (cache) {
    if (auto lent = cache->lend(kWarmUpCacheScope, workdir / kWarmUpCacheFolder); !lent) {
      log::warn("runner", "the warm-up's transforms were not lent: " + lent.error().message);
    }
  }
  // V8's code cache of the runner's modules spares an unprimed runner
  // compiling most of Jest. A primed runner writes it while none is held for
  // its Node.js major, and it is kept when that runner says it is ready.
  // Either way the file is removed when the runner is ready: its job's files
  // go into that folder.
  std::shared_ptr<runner_cache::RunnerCodeCache> code_cache;
  if (const auto& held = state.settings->code_cache; held && !args.empty()) {
    if (auto lent = held->lend(major, workdir / kCodeCacheFile); !lent) {
      log::warn("runner", "the code cache was not lent: " + lent.error().message);
    } else if (*lent) {
      args.insert(args.end(), {"--code-cache", kCodeCacheFile});
    }
  } else if (held && !held->holds(major)) {
    args = {"--save-code-cache", kCodeCacheFile};
    code_cache = held;
  }
  auto child = process::ChildProcess::start(
      *state.host,
      sandboxed_runner(*state.settings, state.settings->run_limits, workdir, node, "run.js", args,
                       node_path.empty() ? std::vector<std::filesystem::path>{}
                                         : std::vector<std::filesystem::path>{node_path}));
  if (!child) {
    self->send(self, ready_atom_v, start, RunnerStart{std::nullopt, child.error().message});
    return;
  }
  auto process = *child;
  auto handle = caf::actor_cast<executor_pool_actor>(self);
  process->exchange(
      {}, false, kReadyTimeout,
      [process, handle, start, workdir, major, cache, code_cache](std::optional<std::string> line) {
        if (line && is_ready_line(*line)) {
          if (cache) {
            if (auto kept = cache->keep(kWarmUpCacheScope, workdir / kWarmUpCacheFolder); !kept) {
              log::warn("runner",
                        "the warm-up's transforms were not kept: " + kept.error().message);
            }
          }
          if (code_cache) {
            if (auto kept = code_cache->keep(major, workdir / kCodeCacheFile); !kept) {
              log::warn("runner", "the code cache was not kept: " + kept.error().message);
            }
          }
          std::error_code ec;
          std::filesystem::remove(workdir / kCodeCacheFile, ec);
          caf::anon_send(handle, ready_atom_v, start,
                         RunnerStart{WarmRunner{process, workdir, major}, {}});
          return;
        }
        process->wait(std::chrono::seconds(2), [handle, start, workdir,
                                                line](process::ProcessExit exit) {
          std::error_code ec;
          std::filesystem::remove_all(workdir, ec);
          std::string why = "a runner did not get ready: ";
          why += line ? *line
                      : exit.stderr_tail.substr(
                            exit.stderr_tail.size() > 2000 ? exit.stderr_tail.size() - 2000 : 0);
          caf::anon_send(handle, ready_atom_v, start, RunnerStart{std::nullopt, why});
        });
      });
}

void replenish(Self self) {
  auto& state = self->state;
  if (state.backing_off) return;
  // A runner's start (loading and priming Jest, about a second of a core)
  // takes CPU that the runs executing beside it need, and slows them. While
  // runs execute and none waits (here or at the hub), the pool is refilled
  // only when the last of them gives its slot back: refilled at once, at the
  // end of a burst, the primed starts slowed the last runs so much that 24
  // runs posted at once went at 1.27–1.40× cold jest instead of 1.53–1.56×
  // (bench/api_bench.sh). A run arriving meanwhile with no runner ready gets
  // one started for it, unprimed.
  if (state.busy > 0 && state.requests.empty() && state.runs_waiting_elsewhere == 0) return;
  while (state.ready.size() + state.warming < state.settings->warm_runners) {
    ++state.warming;
    start_runner(self, state.settings->default_node_major, "", 0);
  }
}

void pump(Self self) {
  auto& state = self->state;
  while (state.busy < state.settings->executor_slots && !state.queue.empty()) {
    const auto ticket = state.queue.front();
    auto found = state.requests.find(ticket);
    if (found == state.requests.end()) {
      state.queue.pop_front();
      continue;
    }
    auto& request = found->second;
    if (request.node_major == state.settings->default_node_major && request.node_path.empty()) {
      if (state.ready.empty()) break;  // a warm one is on its way (replenish below)
      auto runner = std::move(state.ready.front());
      state.ready.pop_front();
      state.queue.pop_front();
      ++state.busy;
      request.promise.deliver(std::move(runner));
      state.requests.erase(found);
    } else {
      state.queue.pop_front();
      ++state.busy;
      request.waiting = false;
      start_runner(self, request.node_major, request.node_path, ticket);
    }
  }
  replenish(self);
  auto& stats = *state.stats;
  stats.runs_executing = static_cast<std::int64_t>(state.busy);
  stats.runs_waiting = static_cast<std::int64_t>(state.requests.size());
  stats.runners_ready = static_cast<std::int64_t>(state.ready.size());
  stats.runners_starting = static_cast<std::int64_t>(state.starts.size());
}

executor_pool_actor::behavior_type executor_pool(Self self, const RunnerSettings* settings,
                                                 process::ProcessHost* host, RunnerStats* stats) {
  self->state.settings = settings;
  self->state.host = host;
  self->state.stats = stats;
  replenish(self);
  return {
      [self](acquire_atom, const std::string& major, const std::string& node_path,
             std::uint32_t runs_waiting) -> caf::result<WarmRunner> {
        auto& state = self->state;
        state.runs_waiting_elsewhere = runs_waiting;
        const auto ticket = state.next_ticket++;
        auto promise = self->make_response_promise<WarmRunner>();
        state.requests.emplace(ticket, Request{major, node_path, promise, true});
        state.queue.push_back(ticket);
        pump(self);
        if (state.requests.count(ticket)) {
          self->delayed_send(self, state.settings->run_queue_wait, expired_atom_v, ticket);
        }
        return promise;
      },
      [self](release_atom) {
        if (self->state.busy > 0) --self->state.busy;
        pump(self);
      },
      [self](ready_atom, std::uint64_t start, RunnerStart& outcome) {
        auto& state = self->state;
        const auto for_request = state.starts[start];
        state.starts.erase(start);
        if (for_request == 0) --state.warming;
        if (!outcome.runner) {
          log::error("executor-pool", outcome.error);
          ++state.stats->runner_start_failures;
          if (for_request != 0) {
            --state.busy;
            if (auto found = state.requests.find(for_request); found != state.requests.end()) {
              found->second.promise.deliver(to_caf_error(base::Error::unavailable(outcome.error)));
              state.requests.erase(found);
            }
          } else if (!state.backing_off) {
            // Do not spin on a runner that cannot start: try again shortly.
            state.backing_off = true;
            self->delayed_send(self, kRetryAfterFailure, expired_atom_v, kBackOffOver);
          }
          pump(self);
          return;
        }
        state.backing_off = false;
        if (for_request != 0) {
          auto found = state.requests.find(for_request);
          if (found != state.requests.end()) {
            found->second.promise.deliver(std::move(*outcome.runner));
            state.requests.erase(found);
          } else {
            --state.busy;
            discard(*outcome.runner);
          }
        } else {
          state.ready.push_back(std::move(*outcome.runner));
        }
        pump(self);
      },
      [self](expired_atom, std::uint64_t ticket) {
        auto& state = self->state;
        if (ticket == kBackOffOver) {
          state.backing_off = false;
          return pump(self);
        }
        auto found = state.requests.find(ticket);
        if (found == state.requests.end() || !found->second.waiting) return;
        found->second.promise.deliver(to_caf_error(base::Error::unavailable(
            "no runner became free within " +
            std::to_string(state.settings->run_queue_wait.count() / 1000) + " s")));
        state.requests.erase(found);
      },
  };
}

}  // namespace

executor_pool_actor spawn_executor_pool(caf::actor_system& system, const RunnerSettings& settings,
                                        process::ProcessHost& host, RunnerStats& stats) {
  return system.spawn(executor_pool, &settings, &host, &stats);
}

}  // namespace vouch::actors
