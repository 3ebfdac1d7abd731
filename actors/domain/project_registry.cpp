#include "actors/domain/project_registry.hpp"

#include "actors/domain/keyed_actors.hpp"
#include "actors/domain/project_actor.hpp"

namespace vouch::actors {
namespace {

constexpr char kRegistryName[] = "vouch.project-registry";
using Self = project_registry_actor::stateful_pointer<RegistryState<project_actor, kRegistryName>>;

// Answers `command` with the reply of the project's actor, once it has one.
template <class Command>
caf::result<events::Project> route(Self self, const Command& command) {
  return self->state.actors->delegate<events::Project>(self, command.id, command);
}

project_registry_actor::behavior_type registry(Self self, const store::EventLog* log,
                                               event_store_actor store,
                                               std::chrono::milliseconds idle_after) {
  keep_keyed_actors(self, self->state.actors, [=](const std::string& id) {
    return spawn_project_actor(self->system(),
                               ProjectActorConfig{id, log, store, self, idle_after});
  });
  return {
      [self](const events::CreateProject& command) { return route(self, command); },
      [self](const events::UpdateProject& command) { return route(self, command); },
      [self](const events::DeleteProject& command) { return route(self, command); },
      [self](const events::ImportProject& command) { return route(self, command); },
      [self](idle_atom, const std::string& id) { self->state.actors->stop(id, stop_atom_v); },
  };
}

}  // namespace

project_registry_actor spawn_project_registry(caf::actor_system& system, const store::EventLog& log,
                                              event_store_actor store,
                                              std::chrono::milliseconds idle_after) {
  return system.spawn(registry, &log, std::move(store), idle_after);
}

}  // namespace vouch::actors
