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
                                               event_store_actor store, ProjectActorLimits limits,
                                               ProjectActorStats* stats) {
  keep_keyed_actors(
      self, self->state.actors,
      [=](const std::string& id) {
        return spawn_project_actor(self->system(), ProjectActorConfig{id, log, store});
      },
      limits.max_live, &stats->live);
  // One timer for all the projects (not one per actor: a timer holds its
  // actor's memory until it fires, even after the actor stopped).
  const auto sweep_every = std::max(limits.idle_after / 4, std::chrono::milliseconds(1));
  self->delayed_send(self, sweep_every, idle_atom_v);
  return {
      [self](const events::CreateProject& command) { return route(self, command); },
      [self](const events::UpdateProject& command) { return route(self, command); },
      [self](const events::DeleteProject& command) { return route(self, command); },
      [self](const events::ImportProject& command) { return route(self, command); },
      [self, limits, sweep_every](idle_atom) {
        self->state.actors->stop_idle(limits.idle_after);
        self->delayed_send(self, sweep_every, idle_atom_v);
      },
  };
}

}  // namespace

project_registry_actor spawn_project_registry(caf::actor_system& system, const store::EventLog& log,
                                              event_store_actor store, ProjectActorLimits limits,
                                              ProjectActorStats& stats) {
  return system.spawn(registry, &log, std::move(store), limits, &stats);
}

}  // namespace vouch::actors
