#include "actors/execution/run_coordinator.hpp"

#include <chrono>
#include <unordered_map>
#include <vector>

#include "actors/domain/append_request.hpp"
#include "actors/errors.hpp"
#include "actors/execution/run_actor.hpp"
#include "actors/timeouts.hpp"
#include "base/ids.hpp"
#include "log/log.hpp"

namespace vouch::actors {
namespace {

// Waits for one run's end (long-polling readers) are capped per run, so
// that clients cannot make the coordinator hold promises without bound; a
// wait over the cap is answered at once and the reader sees the run running.
// Waits whose asker has given up are dropped before counting.
constexpr std::size_t kMaxWaitsPerRun = 64;

struct Waiter {
  caf::typed_response_promise<bool> promise;
  std::chrono::steady_clock::time_point given_up;  // the asker's own timeout
};

struct RunCoordinatorState {
  RunCoordinatorConfig config;
  // The runs this process started and has not recorded the end of yet, with
  // the readers waiting for that end.
  std::unordered_map<std::string, std::vector<Waiter>> active;
  bool releasing = false;  // vouchd is stopping: waits are answered at once
  static inline const char* name = "vouch.run-coordinator";

  void ended(const std::string& run_id) {
    auto found = active.find(run_id);
    if (found == active.end()) return;
    for (auto& waiter : found->second) waiter.promise.deliver(true);
    active.erase(found);
  }
};

using Self = run_coordinator_actor::stateful_pointer<RunCoordinatorState>;

// A run's events, appended to its stream.
store::AppendRequest run_append(const events::TestRun& run,
                                const std::vector<events::RunEvent>& decided,
                                std::uint64_t expected_version, base::Millis at) {
  return actors::append_request(events::run_stream(run.id), expected_version, decided, run.account,
                                at);
}

// The threshold a run is judged by: its project's now, or the one the test
// was generated with when the project is gone.
double threshold_of(const RunCoordinatorConfig& config, const events::TestRun& run) {
  if (auto project = config.projects->find(run.account, run.project_id); project && *project) {
    return (*project)->threshold;
  }
  if (auto test = config.tests->find(run.account, run.test_id); test && *test) {
    return (*test)->threshold;
  }
  return 0;
}

void end_run(Self self, const events::TestRun& run, const events::RunReport& report) {
  auto& config = self->state.config;
  const auto at = base::now_millis();
  auto previous = config.tests->latest_coverage(run.project_id);
  if (!previous) {
    log::error("runs", previous.error().message);
    self->state.ended(run.id);
    return;
  }
  auto decided = events::finish_run(run, report, threshold_of(config, run), *previous, at);
  if (!decided) {
    log::warn("runs", decided.error().message);
    self->state.ended(run.id);
    return;
  }
  const std::uint64_t started_version = 1;
  // Readers waiting for the end are answered once it is durable (and in the
  // read models), or once recording it failed: then they see it running.
  self->request(config.store, kAppendTimeout, append_atom_v,
                run_append(run, *decided, started_version, at))
      .await([self, id = run.id](const store::AppendResult&) { self->state.ended(id); },
             [self, run](caf::error& error) {
               log::error("runs", "could not record the end of " + run.id + ": " +
                                      from_caf_error(error).message);
               self->state.ended(run.id);
             });
}

void interrupt_unfinished(Self self) {
  for (const auto& run : items_or_logged(self->state.config.runs->running(), "runs")) {
    auto decided = events::interrupt_run(run, base::now_millis());
    if (!decided) continue;
    log::warn("runs", run.id + " was running when vouchd stopped; ended as interrupted");
    self->request(self->state.config.store, kAppendTimeout, append_atom_v,
                  run_append(run, *decided, 1, base::now_millis()))
        .await([](const store::AppendResult&) {},
               [id = run.id](caf::error& error) {
                 log::error("runs", "could not end " + id + ": " + from_caf_error(error).message);
               });
  }
}

run_coordinator_actor::behavior_type run_coordinator(Self self, RunCoordinatorConfig config) {
  self->state.config = std::move(config);
  interrupt_unfinished(self);
  return {
      [self](StartRun& command) -> caf::result<events::TestRun> {
        auto& config = self->state.config;
        events::TestRun run;
        run.id = command.run_id;
        run.account = command.test.account;
        run.test_id = command.test.id;
        run.project_id = command.test.project_id;
        run.environment = std::move(command.environment);
        run.created = command.at;
        auto promise = self->make_response_promise<events::TestRun>();
        std::vector<events::SourceFile> files = command.test.sources;
        files.insert(files.end(), command.test.files.begin(), command.test.files.end());
        self->request(config.store, kAppendTimeout, append_atom_v,
                      run_append(run, {events::RunStarted{run}}, store::kNoStream, run.created))
            .then(
                [self, promise, run, files = std::move(files)](const store::AppendResult&) mutable {
                  auto& config = self->state.config;
                  self->state.active.try_emplace(run.id);
                  spawn_run_actor(
                      self->system(),
                      RunActorConfig{run, std::move(files), config.settings, config.workers,
                                     caf::actor_cast<run_coordinator_actor>(self)});
                  promise.deliver(run);
                },
                [promise](caf::error& error) mutable { promise.deliver(std::move(error)); });
        return promise;
      },
      [self](finish_atom, const events::TestRun& run, const events::RunReport& report) {
        end_run(self, run, report);
      },
      [self](await_end_atom, const std::string& run_id, caf::timespan wait) -> caf::result<bool> {
        auto& state = self->state;
        auto found = state.active.find(run_id);
        if (found == state.active.end()) return true;
        auto& waiters = found->second;
        const auto now = std::chrono::steady_clock::now();
        std::erase_if(waiters, [now](const Waiter& waiter) { return waiter.given_up <= now; });
        if (state.releasing || waiters.size() >= kMaxWaitsPerRun) return false;
        auto promise = self->make_response_promise<bool>();
        waiters.push_back(
            {promise, now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(wait)});
        return promise;
      },
      [self](release_all_atom) {
        self->state.releasing = true;
        for (auto& [id, waiters] : self->state.active) {
          for (auto& waiter : waiters) waiter.promise.deliver(false);
          waiters.clear();
        }
      },
  };
}

}  // namespace

run_coordinator_actor spawn_run_coordinator(caf::actor_system& system,
                                            RunCoordinatorConfig config) {
  return system.spawn(run_coordinator, std::move(config));
}

}  // namespace vouch::actors
