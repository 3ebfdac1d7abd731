#include "actors/execution/worker.hpp"

#include <algorithm>

#include "actors/errors.hpp"
#include "actors/execution/generation_scale.hpp"
#include "actors/execution/runner_protocol.hpp"
#include "log/log.hpp"
#include "runner_cache/transform_cache.hpp"
#include "store/coverage_reports.hpp"

namespace vouch::actors {
namespace {

// Makes `task` the job's one task; the returned promise is its answer.
template <class Done, class Self, class Task>
caf::typed_response_promise<Done> accept(Self self, Task& task) {
  self->state.task = std::move(task);
  self->state.promise = self->template make_response_promise<Done>();
  return self->state.promise;
}

// Asks the dependency cache for the task's environment, then calls
// `next(outcome)`; a failed request is an outcome with an install_failed
// error. The cache answers within its install_timeout (see
// actors/timeouts.hpp on why a short-lived actor's wait has no timeout of
// its own).
template <class Self, class Next>
void install_then(Self self, Next next) {
  self->request(self->state.config.dependencies, caf::infinite, install_atom_v,
                self->state.task.environment)
      .then([next](InstallOutcome& installed) { next(std::move(installed)); },
            [next](caf::error& error) {
              InstallOutcome failed;
              failed.error = events::RunError{"install_failed", from_caf_error(error).message};
              next(std::move(failed));
            });
}

// --- generation ---------------------------------------------------------------

using generation_job_actor = caf::typed_actor<caf::replies_to<GenerationTask>::with<GenerationDone>,
                                              caf::reacts_to<generated_atom, GenerationOutcome>>;

struct GenerationJobState {
  WorkerConfig config;
  GenerationTask task;
  caf::typed_response_promise<GenerationDone> promise;
  std::filesystem::path workdir;
  std::string node_path;  // the installed dependencies, "" for none
  std::optional<events::RunError> install;
  static inline const char* name = "vouch.generation-job";
};

using GenerationSelf = generation_job_actor::stateful_pointer<GenerationJobState>;

// Where a generation's progress goes: nowhere for a synchronous one.
struct ProgressSink {
  generation_progress_actor to;
  std::string test_id;

  void tell(std::string phase, std::uint32_t files_done = 0, std::uint32_t files_total = 0,
            std::uint32_t tests_kept = 0) const {
    if (!to) return;
    caf::anon_send(
        to, GenerationProgress{test_id, std::move(phase), files_done, files_total, tests_kept});
  }
};

// Writes `job` to the generator (and closes its stdin; empty: already
// written), then reads its stdout up to the result line, telling `sink` each
// progress line on the way; `done` gets the result line (nullopt as
// ChildProcess::exchange gives it), all before `deadline`.
void exchange_until_result(std::shared_ptr<process::ChildProcess> process, std::string job,
                           ProgressSink sink, std::chrono::steady_clock::time_point deadline,
                           std::function<void(std::optional<std::string>)> done) {
  const auto left =
      std::max(std::chrono::milliseconds(1), std::chrono::duration_cast<std::chrono::milliseconds>(
                                                 deadline - std::chrono::steady_clock::now()));
  const bool writes = !job.empty();
  process->exchange(std::move(job), writes, left,
                    [process, sink = std::move(sink), deadline,
                     done = std::move(done)](std::optional<std::string> line) mutable {
                      if (line && sink.to) {
                        if (auto progress = read_generation_progress(*line)) {
                          sink.tell(std::move(progress->phase), progress->files_done,
                                    progress->files_total, progress->tests_kept);
                          exchange_until_result(std::move(process), "", std::move(sink), deadline,
                                                std::move(done));
                          return;
                        }
                      }
                      done(std::move(line));
                    });
}

// Starts the generator in a work folder of its own; its outcome comes back
// as generated_atom.
void launch(GenerationSelf self) {
  auto& state = self->state;
  const auto& settings = *state.config.settings;
  state.workdir = settings.work_root / ("generate-" + state.task.test_id);
  std::error_code ec;
  std::filesystem::create_directories(state.workdir, ec);
  const auto version = settings.node_versions.find(state.task.environment.node_version);
  const auto& node = version != settings.node_versions.end() ? version->second : settings.node;
  std::vector<std::filesystem::path> readable;
  if (!state.node_path.empty()) readable.emplace_back(state.node_path);
  std::vector<std::string> args;
  if (state.task.progress_to) args.emplace_back("--progress");
  // A package of many sources gets a longer budget, and limits to match.
  const auto plan = generation_plan(settings, state.task.files);
  const auto& limits = plan.limits;
  auto child = process::ChildProcess::start(
      *state.config.host,
      sandboxed_runner(settings, limits, state.workdir, node, "generate.js", args, readable));
  if (!child) {
    log::error("generator", child.error().message);
    self->send(self, generated_atom_v, GenerationOutcome{std::move(child).error()});
    return;
  }
  GenerationJob job{state.task.files, state.task.framework, state.task.threshold, plan.budget,
                    std::nullopt,     plan.stretch,         plan.deadline,        plan.base_budget};
  if (!state.node_path.empty()) job.node_path = state.node_path;
  job.run_memory_mb = settings.run_limits.memory_mb;
  auto process = *child;
  auto handle = caf::actor_cast<generation_job_actor>(self);
  // The sandbox's wall limit ends a generator that hangs; this deadline is the backstop.
  const std::chrono::milliseconds deadline(limits.wall_ms + 5'000);
  exchange_until_result(
      process, generation_job_line(job), ProgressSink{state.task.progress_to, state.task.test_id},
      std::chrono::steady_clock::now() + deadline,
      [process, handle](std::optional<std::string> answer) {
        process->wait(std::chrono::seconds(5),
                      [handle, answer = std::move(answer)](process::ProcessExit exit) {
                        caf::anon_send(handle, generated_atom_v,
                                       GenerationOutcome{read_generation(answer, exit)});
                      });
      });
}

generation_job_actor::behavior_type generation_job(GenerationSelf self, WorkerConfig config) {
  self->state.config = std::move(config);
  return {
      [self](GenerationTask& task) -> caf::result<GenerationDone> {
        auto promise = accept<GenerationDone>(self, task);
        ProgressSink{self->state.task.progress_to, self->state.task.test_id}.tell(
            self->state.task.environment.dependencies.empty() ? "starting" : "installing");
        if (self->state.task.environment.dependencies.empty()) {
          launch(self);
          return promise;
        }
        // Generation goes on without the dependencies when their install
        // fails; the answer says so.
        install_then(self, [self](InstallOutcome installed) {
          self->state.node_path = std::move(installed.node_path);
          self->state.install = std::move(installed.error);
          launch(self);
        });
        return promise;
      },
      [self](generated_atom, GenerationOutcome& outcome) {
        auto& state = self->state;
        std::error_code ec;
        if (!state.workdir.empty()) std::filesystem::remove_all(state.workdir, ec);
        GenerationDone done;
        done.worker = state.config.name;
        if (!outcome.output) {
          if (outcome.output.error().code == base::ErrorCode::kInternal) {
            log::error("generator", outcome.output.error().message);
          }
          done.failure = job_failure(outcome.output.error());
        } else {
          done.files = std::move(outcome.output->files);
          done.summary = std::move(outcome.output->summary);
          done.sources_stated = outcome.output->sources.has_value();
          if (outcome.output->sources) done.sources = std::move(*outcome.output->sources);
          if (state.install) {
            done.install_failed = true;
            done.install_code = state.install->code;
            done.install_detail = state.install->detail;
          }
        }
        state.promise.deliver(std::move(done));
        self->quit();
      },
  };
}

// --- run ------------------------------------------------------------------------

using run_job_actor =
    caf::typed_actor<caf::replies_to<RunTask>::with<RunDone>, caf::reacts_to<report_atom, RunDone>>;

struct RunJobState {
  WorkerConfig config;
  RunTask task;
  caf::typed_response_promise<RunDone> promise;
  static inline const char* name = "vouch.run-job";
};

using RunSelf = run_job_actor::stateful_pointer<RunJobState>;

// Jest's report, as the sandboxed run wrote it (never through a link, within
// the report limits); empty when there is none or it cannot be taken.
std::vector<events::SourceFile> coverage_report(const std::string& run_id,
                                                const std::filesystem::path& folder) {
  auto files = store::read_coverage_report(folder, store::CoverageReports::Limits{});
  if (!files) {
    log::warn("runs",
              "the coverage report of " + run_id + " was not kept: " + files.error().message,
              {{"runId", run_id}});
    return {};
  }
  std::vector<events::SourceFile> report;
  report.reserve(files->size());
  for (auto& [path, content] : *files) report.push_back({path, std::move(content)});
  return report;
}

// The run's tests one by one join its coverage report, so that its JUnit report
// lives as long as the coverage report. A file of that name the run wrote
// itself is replaced.
void with_test_cases(std::vector<events::SourceFile>& report, const std::string& line) {
  if (report.empty()) return;
  std::erase_if(report,
                [](const events::SourceFile& file) { return file.path == events::kTestCasesFile; });
  report.push_back(
      {std::string(events::kTestCasesFile), events::encode_test_cases(read_test_cases(line))});
}

void warn_about_cache(const std::string& run_id, const std::string& what,
                      const base::Error& error) {
  log::warn("runs", "the transform cache " + what + " " + run_id + ": " + error.message,
            {{"runId", run_id}});
}

// Hands the job to the runner. The result line is the answer, reported at
// once with the coverage report; the runner's slot and folder are given back
// when its process has ended. Without a result line, the sandbox's report
// says why.
void execute(RunSelf self, WarmRunner runner, const std::string& node_path) {
  auto& state = self->state;
  // The project's transform cache, when this machine keeps one: lent before
  // the job (the runner reads nothing of its folder before it), taken back
  // once the run's process has ended. A failure costs only the time it saves.
  auto cache = state.task.project_id.empty() ? nullptr : state.config.settings->transform_cache;
  if (cache) {
    if (auto lent = cache->lend(state.task.project_id, runner.workdir / kJestCacheFolder); !lent) {
      warn_about_cache(state.task.run_id, "was not lent to", lent.error());
    }
  }
  const auto wall_ms = state.config.settings->run_limits.wall_ms;
  RunJob job{std::move(state.task.files), std::nullopt, wall_ms};
  if (!node_path.empty()) job.node_path = node_path;
  auto handle = caf::actor_cast<run_job_actor>(self);
  auto executors = state.config.executors;
  auto process = runner.process;
  const auto workdir = runner.workdir;
  // run.js keeps to wallMs itself, the sandbox kills at it; this is the backstop.
  process->exchange(
      run_job_line(job), true, std::chrono::milliseconds(wall_ms + 10'000),
      [process, handle, executors, workdir, cache, project_id = state.task.project_id,
       run_id = state.task.run_id](std::optional<std::string> line) {
        if (line) {
          // Jest wrote the report before run.js printed its line.
          process::ProcessExit clean_exit;
          clean_exit.code = 0;
          auto done = run_done(read_run(line, clean_exit));
          done.coverage_report = coverage_report(run_id, workdir / kCoverageReportFolder);
          with_test_cases(done.coverage_report, *line);
          caf::anon_send(handle, report_atom_v, std::move(done));
        }
        process->wait(std::chrono::seconds(5),
                      [handle, executors, workdir, cache, project_id, run_id,
                       line = std::move(line)](process::ProcessExit exit) {
                        if (cache) {
                          auto kept = cache->keep(project_id, workdir / kJestCacheFolder);
                          if (!kept)
                            warn_about_cache(run_id, "did not take what was left by", kept.error());
                        }
                        std::error_code ec;
                        std::filesystem::remove_all(workdir, ec);
                        caf::anon_send(executors, release_atom_v);
                        if (!line)
                          caf::anon_send(handle, report_atom_v, run_done(read_run(line, exit)));
                      });
      });
}

run_job_actor::behavior_type run_job(RunSelf self, WorkerConfig config) {
  self->state.config = std::move(config);
  return {
      [self](RunTask& task) -> caf::result<RunDone> {
        auto promise = accept<RunDone>(self, task);
        install_then(self, [self](InstallOutcome installed) {
          if (installed.error) {
            self->send(self, report_atom_v,
                       run_error(installed.error->code, installed.error->detail));
            return;
          }
          // The pool answers within its run_queue_wait.
          const auto& task = self->state.task;
          self->request(self->state.config.executors, caf::infinite, acquire_atom_v,
                        task.environment.node_version, installed.node_path, task.runs_waiting)
              .then([self, node_path = installed.node_path](
                        WarmRunner& runner) { execute(self, std::move(runner), node_path); },
                    [self](caf::error& error) {
                      self->send(self, report_atom_v,
                                 run_error("no_runner", from_caf_error(error).message));
                    });
        });
        return promise;
      },
      [self](report_atom, RunDone& done) {
        done.worker = self->state.config.name;
        self->state.promise.deliver(std::move(done));
        self->quit();
      },
  };
}

worker_actor::behavior_type worker(worker_actor::pointer self, WorkerConfig config) {
  return {
      [self, config](GenerationTask& task) -> caf::delegated<GenerationDone> {
        auto job = self->spawn(generation_job, config);
        return self->delegate(job, std::move(task));
      },
      [self, config](RunTask& task) -> caf::delegated<RunDone> {
        auto job = self->spawn(run_job, config);
        return self->delegate(job, std::move(task));
      },
  };
}

}  // namespace

worker_actor spawn_worker(caf::actor_system& system, WorkerConfig config) {
  return system.spawn(worker, std::move(config));
}

}  // namespace vouch::actors
