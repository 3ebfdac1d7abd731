#include "actors/execution/run_actor.hpp"

#include "actors/errors.hpp"
#include "base/clock.hpp"
#include "log/log.hpp"
#include "store/coverage_reports.hpp"

namespace vouch::actors {
namespace {

struct RunActorState {
  RunActorConfig config;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  static inline const char* name = "vouch.run";
};

using Self = run_actor::stateful_pointer<RunActorState>;

// Keeps the report before the run's end is recorded, so that a completed
// run's report is there.
void keep_coverage_report(const RunActorConfig& config, std::vector<events::SourceFile> report) {
  auto* reports = config.settings->coverage_reports;
  if (!reports || report.empty()) return;
  std::map<std::string, std::string> files;
  for (auto& file : report) files.emplace(std::move(file.path), std::move(file.content));
  const auto& run_id = config.run.id;
  auto kept = reports->keep_files(run_id, files, base::now_millis());
  if (!kept) {
    log::warn("runs", "the coverage report of " + run_id + " was not kept: " + kept.error().message,
              {{"runId", run_id}});
  }
}

run_actor::behavior_type run_behavior(Self self, RunActorConfig config) {
  self->state.config = std::move(config);
  auto& state = self->state;
  RunTask task{state.config.run.id, std::move(state.config.files), state.config.run.environment, 0,
               state.config.run.project_id};
  // The hub answers every run: its queue wait, the worker's limits and the
  // loss of a worker end each one (see actors/timeouts.hpp on why a
  // short-lived actor's wait has no timeout of its own).
  self->request(state.config.workers, caf::infinite, std::move(task))
      .then(
          [self](RunDone& done) {
            keep_coverage_report(self->state.config, std::move(done.coverage_report));
            self->send(self, report_atom_v, to_report(std::move(done)));
          },
          [self](caf::error& error) {
            events::RunReport report;
            report.error = events::RunError{"no_runner", from_caf_error(error).message};
            self->send(self, report_atom_v, std::move(report));
          });
  return {
      [self](report_atom, events::RunReport& report) {
        auto& state = self->state;
        report.duration = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::steady_clock::now() - state.started)
                              .count();
        self->send(state.config.coordinator, finish_atom_v, state.config.run, std::move(report));
        self->quit();
      },
  };
}

}  // namespace

run_actor spawn_run_actor(caf::actor_system& system, RunActorConfig config) {
  return system.spawn(run_behavior, std::move(config));
}

}  // namespace vouch::actors
