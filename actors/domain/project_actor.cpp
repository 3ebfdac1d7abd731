#include "actors/domain/project_actor.hpp"

#include "actors/domain/append_request.hpp"
#include "actors/domain/fold_stream.hpp"
#include "actors/errors.hpp"
#include "actors/timeouts.hpp"
#include "base/ids.hpp"
#include "events/project.hpp"

namespace vouch::actors {
namespace {

struct ProjectActorState {
  ProjectActorConfig config;
  events::ProjectState project;
  std::uint64_t version = 0;
  std::optional<base::Error> load_error;
  static inline const char* name = "vouch.project";
};

using Self = project_actor::stateful_pointer<ProjectActorState>;

void load(Self self) {
  auto& state = self->state;
  state.load_error = load_stream(*state.config.log, events::project_stream(state.config.project_id),
                                 events::decode_project_event, state.project, state.version);
}

// Runs one command: decide, append, evolve, answer with the project.
template <class Command>
caf::result<events::Project> handle(Self self, const Command& command) {
  auto& state = self->state;
  if (state.load_error) return to_caf_error(*state.load_error);

  auto decided = events::decide(state.project, command);
  if (!decided) return to_caf_error(std::move(decided).error());
  if (decided->empty()) return *state.project.project;

  auto request = append_request(events::project_stream(state.config.project_id), state.version,
                                *decided, command.account, command.at);
  auto promise = self->make_response_promise<events::Project>();
  // await: no other command of this project runs until the append is durable.
  auto append =
      self->request(state.config.store, kAppendTimeout, append_atom_v, std::move(request));
  append.await(
      [self, promise, id = append.id(),
       events = std::move(decided).value()](const store::AppendResult& result) mutable {
        forget_timeout(self, id);
        for (const auto& event : events) {
          self->state.project = events::evolve(std::move(self->state.project), event);
        }
        self->state.version = result.stream_version;
        promise.deliver(*self->state.project.project);
      },
      [self, promise, id = append.id()](caf::error& error) mutable {
        forget_timeout(self, id);
        // A conflict means another writer got in first: reload, so the
        // next command decides on the truth.
        self->state.project = {};
        self->state.version = 0;
        load(self);
        promise.deliver(std::move(error));
      });
  return promise;
}

project_actor::behavior_type project_behavior(Self self, ProjectActorConfig config) {
  self->state.config = std::move(config);
  load(self);
  return {
      [self](const events::CreateProject& command) { return handle(self, command); },
      [self](const events::UpdateProject& command) { return handle(self, command); },
      [self](const events::DeleteProject& command) { return handle(self, command); },
      [self](const events::ImportProject& command) { return handle(self, command); },
      [self](stop_atom) { self->quit(); },
  };
}

}  // namespace

project_actor spawn_project_actor(caf::actor_system& system, ProjectActorConfig config) {
  return system.spawn(project_behavior, std::move(config));
}

}  // namespace vouch::actors
