#include "actors/execution/run_actor.hpp"

#include "actors/errors.hpp"
#include "actors/execution/runner_protocol.hpp"
#include "events/clock.hpp"
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

events::RunReport error_report(std::string code, std::string detail) {
  events::RunReport report;
  report.error = events::RunError{std::move(code), std::move(detail)};
  return report;
}

void keep_coverage_report(store::CoverageReports& reports, const std::string& run_id,
                          const std::filesystem::path& workdir) {
  auto kept = reports.keep(run_id, workdir / kCoverageReportFolder, events::now_millis());
  if (!kept) {
    log::warn("runs", "the coverage report of " + run_id + " was not kept: " + kept.error().message,
              {{"runId", run_id}});
  }
}

// Hands the job to the runner. The result line is the answer, reported at
// once; the runner's slot and folder are given back when its process has
// ended. Without a result line, the sandbox's report says why.
void execute(Self self, WarmRunner runner, const std::string& node_path) {
  auto& state = self->state;
  const auto wall_ms = state.config.settings->run_limits.wall_ms;
  RunJob job{state.config.files, std::nullopt, wall_ms};
  if (!node_path.empty()) job.node_path = node_path;
  auto handle = caf::actor_cast<run_actor>(self);
  auto executors = state.config.executors;
  auto process = runner.process;
  const auto workdir = runner.workdir;
  auto* reports = state.config.settings->coverage_reports;
  // run.js keeps to wallMs itself, the sandbox kills at it; this is the backstop.
  process->exchange(
      run_job_line(job), true, std::chrono::milliseconds(wall_ms + 10'000),
      [process, handle, executors, workdir, reports,
       run_id = state.config.run.id](std::optional<std::string> line) {
        if (line) {
          // Jest wrote the report before run.js printed its line: keep it
          // before the run's end is recorded.
          if (reports) keep_coverage_report(*reports, run_id, workdir);
          caf::anon_send(handle, report_atom_v, read_run(line, ProcessExit{.code = 0}));
        }
        process->wait(std::chrono::seconds(5),
                      [handle, executors, workdir, line = std::move(line)](ProcessExit exit) {
                        std::error_code ec;
                        std::filesystem::remove_all(workdir, ec);
                        caf::anon_send(executors, release_atom_v);
                        if (!line) caf::anon_send(handle, report_atom_v, read_run(line, exit));
                      });
      });
}

run_actor::behavior_type run_behavior(Self self, RunActorConfig config) {
  self->state.config = std::move(config);
  auto& state = self->state;
  // Both peers answer within limits of their own (the cache ends an install
  // at install_timeout, the pool a wait at run_queue_wait), so these waits
  // are bounded without a timeout of their own; one would keep CAF 0.17's
  // actor system from shutting down until it expired (see actors/timeouts.hpp).
  self->request(state.config.dependencies, caf::infinite, install_atom_v,
                state.config.run.environment)
      .then(
          [self](InstallOutcome& installed) {
            if (installed.error) {
              self->send(self, report_atom_v,
                         error_report(installed.error->code, installed.error->detail));
              return;
            }
            auto& state = self->state;
            self->request(state.config.executors, caf::infinite, acquire_atom_v,
                          state.config.run.environment.node_version, installed.node_path)
                .then([self, node_path = installed.node_path](
                          WarmRunner& runner) { execute(self, std::move(runner), node_path); },
                      [self](caf::error& error) {
                        self->send(self, report_atom_v,
                                   error_report("no_runner", from_caf_error(error).message));
                      });
          },
          [self](caf::error& error) {
            self->send(self, report_atom_v,
                       error_report("install_failed", from_caf_error(error).message));
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
