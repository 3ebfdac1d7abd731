#include "actors/execution/generator_pool.hpp"

#include <deque>
#include <unordered_map>

#include "actors/domain/append_request.hpp"
#include "actors/errors.hpp"
#include "actors/execution/runner_protocol.hpp"
#include "actors/timeouts.hpp"
#include "events/ids.hpp"
#include "log/log.hpp"

namespace vouch::actors {
namespace {

struct Job {
  GenerateTests command;
  caf::typed_response_promise<events::GeneratedTest> promise;
  std::filesystem::path workdir;
  std::string node_path;                    // the installed dependencies, "" for none
  std::optional<events::RunError> install;  // why they could not be installed
};

struct GeneratorPoolState {
  const RunnerSettings* settings = nullptr;
  ProcessHost* host = nullptr;
  RunnerStats* stats = nullptr;
  event_store_actor store;
  dependency_cache_actor dependencies;
  std::size_t busy = 0;
  std::uint64_t next_ticket = 1;
  std::deque<std::uint64_t> waiting;            // tickets in arrival order
  std::unordered_map<std::uint64_t, Job> jobs;  // waiting and running
  static inline const char* name = "vouch.generator-pool";
};

using Self = generator_pool_actor::stateful_pointer<GeneratorPoolState>;

void fail(Self self, std::uint64_t ticket, events::Error error) {
  auto found = self->state.jobs.find(ticket);
  if (found == self->state.jobs.end()) return;
  found->second.promise.deliver(to_caf_error(std::move(error)));
  self->state.jobs.erase(found);
}

// Starts the generator for `ticket` in a work folder of its own.
void launch(Self self, std::uint64_t ticket) {
  auto& state = self->state;
  auto& job = state.jobs.at(ticket);
  ++state.busy;
  job.workdir = state.settings->work_root / ("generate-" + job.command.test_id);
  std::error_code ec;
  std::filesystem::create_directories(job.workdir, ec);
  const auto& limits = state.settings->generation_limits;
  const auto& versions = state.settings->node_versions;
  const auto version = versions.find(job.command.environment.node_version);
  const auto& node = version != versions.end() ? version->second : state.settings->node;
  std::vector<std::filesystem::path> readable;
  if (!job.node_path.empty()) readable.emplace_back(job.node_path);
  auto child = ChildProcess::start(
      *state.host,
      sandboxed_runner(*state.settings, limits, job.workdir, node, "generate.js", {}, readable));
  if (!child) {
    log::error("generator", child.error().message);
    self->send(self, generated_atom_v, ticket, GenerationOutcome{std::move(child).error()});
    return;
  }
  GenerationJob generation{job.command.files, job.command.framework, job.command.threshold,
                           state.settings->generation_budget, std::nullopt};
  if (!job.node_path.empty()) generation.node_path = job.node_path;
  const auto line = generation_job_line(generation);
  auto process = *child;
  auto handle = caf::actor_cast<generator_pool_actor>(self);
  // The sandbox's wall limit ends a generator that hangs; this deadline is the backstop.
  const std::chrono::milliseconds deadline(limits.wall_ms + 5'000);
  process->exchange(
      line, true, deadline, [process, handle, ticket](std::optional<std::string> answer) {
        process->wait(std::chrono::seconds(5),
                      [handle, ticket, answer = std::move(answer)](ProcessExit exit) {
                        caf::anon_send(handle, generated_atom_v, ticket,
                                       GenerationOutcome{read_generation(answer, exit)});
                      });
      });
}

void pump(Self self) {
  auto& state = self->state;
  while (state.busy < state.settings->generator_slots && !state.waiting.empty()) {
    const auto ticket = state.waiting.front();
    state.waiting.pop_front();
    if (state.jobs.count(ticket)) launch(self, ticket);
  }
  state.stats->generations_running = static_cast<std::int64_t>(state.busy);
  state.stats->generations_waiting = static_cast<std::int64_t>(state.waiting.size());
}

// Records the generated test, then answers.
void complete(Self self, Job job, GenerationOutput output) {
  events::GeneratedTest test;
  test.id = job.command.test_id;
  test.account = job.command.account;
  test.project_id = job.command.project_id;
  test.framework = job.command.framework;
  test.threshold = job.command.threshold;
  test.files = std::move(output.files);
  test.sources = std::move(job.command.files);
  test.summary = std::move(output.summary);
  if (job.install) {
    test.summary = with_problem(test.summary, "environment.dependencies", job.install->code,
                                "the dependencies could not be installed, so modules that "
                                "require them were not tested: " +
                                    job.install->detail);
  }
  test.environment = job.command.environment;
  test.created = job.command.at;
  test.updated = job.command.at;
  auto request =
      append_request(events::test_stream(test.id), store::kNoStream,
                     std::vector{events::TestGenerated{test}}, test.account, test.created);
  self->request(self->state.store, kAppendTimeout, append_atom_v, std::move(request))
      .then([promise = job.promise,
             test](const store::AppendResult&) mutable { promise.deliver(test); },
            [promise = job.promise](caf::error& error) mutable {
              promise.deliver(std::move(error));
            });
}

// Puts `ticket` in line for a generator; it waits at most generation_queue_wait.
void enqueue(Self self, std::uint64_t ticket) {
  auto& state = self->state;
  state.waiting.push_back(ticket);
  pump(self);
  if (state.jobs.count(ticket) && !state.jobs.at(ticket).workdir.empty()) return;
  self->delayed_send(self, state.settings->generation_queue_wait, expired_atom_v, ticket);
}

generator_pool_actor::behavior_type generator_pool(Self self, const RunnerSettings* settings,
                                                   ProcessHost* host, RunnerStats* stats,
                                                   event_store_actor store,
                                                   dependency_cache_actor dependencies) {
  self->state.settings = settings;
  self->state.host = host;
  self->state.stats = stats;
  self->state.store = std::move(store);
  self->state.dependencies = std::move(dependencies);
  return {
      [self](GenerateTests& command) -> caf::result<events::GeneratedTest> {
        auto& state = self->state;
        const auto ticket = state.next_ticket++;
        auto promise = self->make_response_promise<events::GeneratedTest>();
        const auto environment = command.environment;
        state.jobs.emplace(ticket, Job{std::move(command), promise, {}, {}, {}});
        if (environment.dependencies.empty()) {
          enqueue(self, ticket);
          return promise;
        }
        // The cache answers within install_timeout (see run_actor.cpp on why
        // this wait has no timeout of its own); the install does not hold a
        // generator slot.
        self->request(state.dependencies, caf::infinite, install_atom_v, environment)
            .then(
                [self, ticket](InstallOutcome& installed) {
                  auto found = self->state.jobs.find(ticket);
                  if (found == self->state.jobs.end()) return;
                  found->second.node_path = installed.node_path;
                  found->second.install = installed.error;
                  enqueue(self, ticket);
                },
                [self, ticket](caf::error& error) {
                  auto found = self->state.jobs.find(ticket);
                  if (found == self->state.jobs.end()) return;
                  found->second.install =
                      events::RunError{"install_failed", from_caf_error(error).message};
                  enqueue(self, ticket);
                });
        return promise;
      },
      [self](generated_atom, std::uint64_t ticket, GenerationOutcome& outcome) {
        auto& state = self->state;
        --state.busy;
        auto found = state.jobs.find(ticket);
        if (found != state.jobs.end()) {
          auto job = std::move(found->second);
          state.jobs.erase(found);
          std::error_code ec;
          if (!job.workdir.empty()) std::filesystem::remove_all(job.workdir, ec);
          if (outcome.output) {
            complete(self, std::move(job), std::move(outcome.output).value());
          } else {
            if (outcome.output.error().code == events::ErrorCode::kInternal) {
              log::error("generator", outcome.output.error().message);
            }
            job.promise.deliver(to_caf_error(std::move(outcome.output).error()));
          }
        }
        pump(self);
      },
      [self](expired_atom, std::uint64_t ticket) {
        auto& state = self->state;
        auto waiting = std::find(state.waiting.begin(), state.waiting.end(), ticket);
        if (waiting == state.waiting.end()) return;  // running or done
        state.waiting.erase(waiting);
        state.stats->generations_waiting = static_cast<std::int64_t>(state.waiting.size());
        ++state.stats->generations_refused;
        const auto seconds = std::max<unsigned>(
            1, static_cast<unsigned>(state.settings->generation_budget.count() / 1000));
        fail(self, ticket,
             events::Error::unavailable("every test generator is busy; try again later", seconds));
      },
  };
}

}  // namespace

generator_pool_actor spawn_generator_pool(caf::actor_system& system, const RunnerSettings& settings,
                                          ProcessHost& host, RunnerStats& stats,
                                          event_store_actor store,
                                          dependency_cache_actor dependencies) {
  return system.spawn(generator_pool, &settings, &host, &stats, std::move(store),
                      std::move(dependencies));
}

}  // namespace vouch::actors
