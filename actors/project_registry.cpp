#include "actors/project_registry.hpp"

#include <unordered_map>

#include "actors/project_actor.hpp"

namespace vouch::actors {
namespace {

struct RegistryState {
  std::unordered_map<std::string, project_actor> projects;
  static inline const char* name = "vouch.project-registry";
};

using Self = project_registry_actor::stateful_pointer<RegistryState>;

project_actor actor_for(Self self, const std::string& id, const store::EventLog* log,
                        const event_store_actor& store, std::chrono::milliseconds idle_after) {
  auto& projects = self->state.projects;
  if (auto it = projects.find(id); it != projects.end()) return it->second;
  auto actor =
      spawn_project_actor(self->system(), ProjectActorConfig{id, log, store, self, idle_after});
  // Linked, so that stopping the registry stops every project actor with it.
  self->link_to(actor);
  projects.emplace(id, actor);
  return actor;
}

project_registry_actor::behavior_type registry(Self self, const store::EventLog* log,
                                               event_store_actor store,
                                               std::chrono::milliseconds idle_after) {
  auto route = [=](const auto& command) {
    return self->delegate(actor_for(self, command.id, log, store, idle_after), command);
  };
  return {
      [route](const events::CreateProject& command) { return route(command); },
      [route](const events::UpdateProject& command) { return route(command); },
      [route](const events::DeleteProject& command) { return route(command); },
      [self](idle_atom, const std::string& id) {
        auto it = self->state.projects.find(id);
        if (it == self->state.projects.end()) return;
        self->send(it->second, stop_atom_v);
        self->state.projects.erase(it);
      },
  };
}

}  // namespace

project_registry_actor spawn_project_registry(caf::actor_system& system, const store::EventLog& log,
                                              event_store_actor store,
                                              std::chrono::milliseconds idle_after) {
  return system.spawn(registry, &log, std::move(store), idle_after);
}

}  // namespace vouch::actors
