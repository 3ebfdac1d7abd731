#include "actors/execution/generation_coordinator.hpp"

#include <set>

#include "actors/domain/append_request.hpp"
#include "actors/errors.hpp"
#include "actors/execution/runner_protocol.hpp"
#include "actors/timeouts.hpp"

namespace vouch::actors {
namespace {

events::GeneratedTest generated_test(GenerateTests& command, GenerationDone& done) {
  events::GeneratedTest test;
  test.id = command.test_id;
  test.account = command.account;
  test.project_id = command.project_id;
  test.framework = command.framework;
  test.threshold = command.threshold;
  test.files = std::move(done.files);
  test.sources = std::move(command.files);
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
  test.environment = command.environment;
  test.created = command.at;
  test.updated = command.at;
  return test;
}

generation_coordinator_actor::behavior_type generation_coordinator(
    generation_coordinator_actor::pointer self, worker_hub_actor hub, event_store_actor store) {
  return {
      [self, hub, store](GenerateTests& command) -> caf::result<events::GeneratedTest> {
        auto promise = self->make_response_promise<events::GeneratedTest>();
        GenerationTask task{command.test_id, command.files, command.framework, command.threshold,
                            command.environment};
        // The hub answers every job: its own queue wait, the worker's limits
        // and the loss of a worker end each one.
        self->request(hub, caf::infinite, std::move(task))
            .then(
                [self, store, promise, command = std::move(command)](GenerationDone& done) mutable {
                  if (done.failure.failed) {
                    promise.deliver(to_caf_error(to_error(done.failure)));
                    return;
                  }
                  auto test = generated_test(command, done);
                  auto request = append_request(events::test_stream(test.id), store::kNoStream,
                                                std::vector{events::TestGenerated{test}},
                                                test.account, test.created);
                  self->request(store, kAppendTimeout, append_atom_v, std::move(request))
                      .then([promise,
                             test](const store::AppendResult&) mutable { promise.deliver(test); },
                            [promise](caf::error& error) mutable {
                              promise.deliver(std::move(error));
                            });
                },
                [promise](caf::error& error) mutable { promise.deliver(std::move(error)); });
        return promise;
      },
  };
}

}  // namespace

generation_coordinator_actor spawn_generation_coordinator(caf::actor_system& system,
                                                          worker_hub_actor hub,
                                                          event_store_actor store) {
  return system.spawn(generation_coordinator, std::move(hub), std::move(store));
}

}  // namespace vouch::actors
