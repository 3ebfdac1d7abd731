#include "actors/execution/generation_coordinator.hpp"

#include <set>
#include <unordered_map>

#include "actors/domain/append_request.hpp"
#include "actors/errors.hpp"
#include "actors/execution/runner_protocol.hpp"
#include "actors/timeouts.hpp"
#include "base/clock.hpp"
#include "log/log.hpp"

namespace vouch::actors {
namespace {

constexpr std::string_view kQueued = "queued";

struct GenerationCoordinatorState {
  GenerationCoordinatorConfig config;
  // The asynchronous generations this process accepted and has not recorded
  // the end of, with how far each got.
  std::unordered_map<std::string, GenerationProgress> progress;
  static inline const char* name = "vouch.generation-coordinator";
};

using Self = generation_coordinator_actor::stateful_pointer<GenerationCoordinatorState>;

// What a generated test takes from the command that asked for it.
events::GeneratedTest test_of(const GenerateTests& command) {
  return {.id = command.test_id,
          .account = command.account,
          .project_id = command.project_id,
          .framework = command.framework,
          .threshold = command.threshold,
          .environment = command.environment,
          .created = command.at,
          .updated = command.at};
}

events::GeneratedTest generated_test(const GenerateTests& command, GenerationDone& done) {
  auto test = test_of(command);
  test.files = std::move(done.files);
  test.sources = command.files;
  if (done.sources_stated) {
    const std::set<std::string> kept(done.sources.begin(), done.sources.end());
    std::erase_if(test.sources, [&](const auto& file) { return !kept.contains(file.path); });
  }
  test.summary = std::move(done.summary);
  if (done.install_failed) {
    test.summary = with_problem(test.summary, "environment.dependencies", done.install_code,
                                "the dependencies could not be installed, so modules that "
                                "require them were not tested: " +
                                    done.install_detail);
  }
  return test;
}

// The test as an asynchronous generation starts: no files yet.
events::GeneratedTest accepted_test(const GenerateTests& command) {
  auto test = test_of(command);
  // Nothing found or kept yet.
  test.summary =
      R"({"functionsFound":0,"testsGenerated":0,"testsKept":0,)"
      R"("coverage":{"statements":0,"branches":0,"functions":0,"lines":0},"perFile":[],"problems":[]})";
  test.status = events::kTestGenerating;
  return test;
}

template <class Event>
store::AppendRequest test_append(const std::string& test_id, std::uint64_t expected_version,
                                 Event event, const std::string& account, base::Millis at) {
  return append_request(events::test_stream(test_id), expected_version,
                        std::vector{std::move(event)}, account, at);
}

// Has the hub generate; `done` gets the generated test or the error. With
// `progress`, the generator reports how far it got to this actor.
template <class Done>
void generate(Self self, const GenerateTests& command, bool progress, Done done) {
  GenerationTask task{command.test_id,   command.files,       command.framework,
                      command.threshold, command.environment, {}};
  if (progress) task.progress_to = caf::actor_cast<generation_progress_actor>(self);
  // The hub answers every job: its own queue wait, the worker's limits and
  // the loss of a worker end each one.
  self->request(self->state.config.hub, caf::infinite, std::move(task))
      .then(
          [self, command, done](GenerationDone& generation) mutable {
            if (generation.failure.failed) {
              done(to_error(generation.failure));
            } else {
              done(generated_test(command, generation));
            }
          },
          [done](caf::error& error) mutable { done(from_caf_error(error)); });
}

// Records the end of an asynchronous generation: its tests, or why there are none.
void record_end(Self self, const GenerateTests& command,
                base::Result<events::GeneratedTest> generated) {
  const auto at = base::now_millis();
  const std::uint64_t accepted_version = 1;
  auto request =
      generated ? test_append(command.test_id, accepted_version, events::TestGenerated{*generated},
                              command.account, generated->created)
                : test_append(command.test_id, accepted_version,
                              events::TestGenerationFailed{
                                  command.test_id,
                                  {std::string(base::to_string(generated.error().code)),
                                   generated.error().message},
                                  at},
                              command.account, at);
  self->request(self->state.config.store, kAppendTimeout, append_atom_v, std::move(request))
      .then([self,
             id = command.test_id](const store::AppendResult&) { self->state.progress.erase(id); },
            [self, id = command.test_id](caf::error& error) {
              // The next start ends it as interrupted.
              log::error("generator", "could not record the end of the generation of " + id + ": " +
                                          from_caf_error(error).message);
              self->state.progress.erase(id);
            });
}

// Ends every asynchronous generation a previous process accepted and never
// ended: its sources and generator are gone with that process.
void interrupt_unfinished(Self self) {
  for (const auto& test : items_or_logged(self->state.config.tests->generating(), "generator")) {
    log::warn("generator", test.id + " was being generated when vouchd stopped; ended as failed");
    const auto at = base::now_millis();
    events::TestGenerationFailed failed{
        test.id,
        {"interrupted",
         "vouchd stopped while these tests were being generated; generate them again"},
        at};
    self->request(self->state.config.store, kAppendTimeout, append_atom_v,
                  test_append(test.id, 1, std::move(failed), test.account, at))
        .then([](const store::AppendResult&) {},
              [id = test.id](caf::error& error) {
                log::error("generator",
                           "could not end " + id + ": " + from_caf_error(error).message);
              });
  }
}

generation_coordinator_actor::behavior_type generation_coordinator(
    Self self, GenerationCoordinatorConfig config) {
  self->state.config = std::move(config);
  interrupt_unfinished(self);
  return {
      [self](GenerateTests& command) -> caf::result<events::GeneratedTest> {
        auto promise = self->make_response_promise<events::GeneratedTest>();
        generate(self, command, false,
                 [self, promise, command](base::Result<events::GeneratedTest> generated) mutable {
                   if (!generated) {
                     promise.deliver(to_caf_error(generated.error()));
                     return;
                   }
                   auto test = std::move(generated).value();
                   self->request(self->state.config.store, kAppendTimeout, append_atom_v,
                                 test_append(test.id, store::kNoStream, events::TestGenerated{test},
                                             test.account, test.created))
                       .then([promise,
                              test](const store::AppendResult&) mutable { promise.deliver(test); },
                             [promise](caf::error& error) mutable {
                               promise.deliver(std::move(error));
                             });
                 });
        return promise;
      },
      [self](async_atom, GenerateTests& command) -> caf::result<events::GeneratedTest> {
        auto promise = self->make_response_promise<events::GeneratedTest>();
        auto test = accepted_test(command);
        self->request(self->state.config.store, kAppendTimeout, append_atom_v,
                      test_append(test.id, store::kNoStream, events::TestGenerationAccepted{test},
                                  test.account, test.created))
            .then(
                [self, promise, test,
                 command = std::move(command)](const store::AppendResult&) mutable {
                  self->state.progress[test.id] =
                      GenerationProgress{test.id, std::string(kQueued), 0, 0, 0};
                  promise.deliver(test);
                  generate(self, command, true,
                           [self, command](base::Result<events::GeneratedTest> generated) {
                             record_end(self, command, std::move(generated));
                           });
                },
                [promise](caf::error& error) mutable { promise.deliver(std::move(error)); });
        return promise;
      },
      [self](progress_atom, const std::string& test_id) -> GenerationProgress {
        auto found = self->state.progress.find(test_id);
        if (found != self->state.progress.end()) return found->second;
        // Ended (or accepted by another process): the record says the rest.
        return GenerationProgress{test_id, "", 0, 0, 0};
      },
      [self](GenerationProgress& progress) {
        auto found = self->state.progress.find(progress.test_id);
        if (found != self->state.progress.end()) found->second = std::move(progress);
      },
  };
}

}  // namespace

generation_coordinator_actor spawn_generation_coordinator(caf::actor_system& system,
                                                          GenerationCoordinatorConfig config) {
  return system.spawn(generation_coordinator, std::move(config));
}

}  // namespace vouch::actors
