#pragma once

#include <caf/all.hpp>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

// The per-id actors of a registry actor (one actor per project, per
// webhook): spawned on first use, monitored, and forgotten only once really
// gone. A message for an id whose actor is stopping waits in the registry
// and goes to a fresh actor once the old one is gone, so that there is never
// more than one actor per id, and nothing routed is lost.
//
// Used from the registry actor's own handlers only (not thread-safe).
namespace vouch::actors {

template <class Handle>
class KeyedActors {
 public:
  // Spawns the actor of `id`; the registry monitors and links it.
  using Spawn = std::function<Handle(const std::string& id)>;
  using Use = std::function<void(const Handle&)>;

  explicit KeyedActors(Spawn spawn) : spawn_(std::move(spawn)) {}

  // Runs `use` with the id's actor: now, or once its stopping actor is gone.
  void with(const std::string& id, Use use) {
    auto& entry = entries_[id];
    if (entry.stopping) {
      entry.waiting.push_back(std::move(use));
      return;
    }
    if (!entry.actor) start(id, entry);
    use(entry.actor);
  }

  // Stops the id's actor (it asked, being idle) with `stop`; messages for
  // the id wait from now on until it is gone.
  template <class StopMessage>
  void stop(const std::string& id, const StopMessage& stop) {
    auto it = entries_.find(id);
    if (it == entries_.end() || !it->second.actor || it->second.stopping) return;
    it->second.stopping = true;
    caf::anon_send(it->second.actor, stop);
  }

  // From the registry's down handler: the actor at `source` is gone. The
  // messages that waited for it go to a fresh actor.
  void gone(const caf::actor_addr& source) {
    auto found = ids_.find(source);
    if (found == ids_.end()) return;
    const std::string id = found->second;
    ids_.erase(found);
    auto it = entries_.find(id);
    if (it == entries_.end()) return;
    auto waiting = std::move(it->second.waiting);
    entries_.erase(it);
    for (auto& use : waiting) with(id, std::move(use));
  }

  // Answers with the reply of the id's actor to `message`, once it has one.
  // `self`: the registry actor, which makes the promise.
  template <class Reply, class Self, class Message>
  caf::result<Reply> delegate(Self self, const std::string& id, Message message) {
    auto promise = self->template make_response_promise<Reply>();
    with(id, [promise, message = std::move(message)](const Handle& actor) mutable {
      promise.delegate(actor, std::move(message));
    });
    return promise;
  }

  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    Handle actor;
    bool stopping = false;
    std::vector<Use> waiting;  // messages for the id while its actor stops
  };

  void start(const std::string& id, Entry& entry) {
    entry.actor = spawn_(id);
    ids_[caf::actor_cast<caf::actor_addr>(entry.actor)] = id;
  }

  Spawn spawn_;
  std::unordered_map<std::string, Entry> entries_;
  std::unordered_map<caf::actor_addr, std::string> ids_;
};

// The state of a registry actor: its per-id actors. `Name` names the actor
// in CAF's logs.
template <class Handle, const char* Name>
struct RegistryState {
  std::optional<KeyedActors<Handle>> actors;
  static inline const char* name = Name;
};

// Makes the registry `self` keep its per-id actors in `actors` (a member of
// its state): each spawned by `spawn(id)`, linked, so that stopping the
// registry stops them all, and monitored, so that one is forgotten only once
// gone (through the down handler this sets).
template <class Handle, class Self, class SpawnFn>
void keep_keyed_actors(Self self, std::optional<KeyedActors<Handle>>& actors, SpawnFn spawn) {
  actors.emplace([self, spawn = std::move(spawn)](const std::string& id) {
    Handle actor = spawn(id);
    self->link_to(actor);
    self->monitor(actor);
    return actor;
  });
  self->set_down_handler([&actors](caf::down_msg& down) { actors->gone(down.source); });
}

}  // namespace vouch::actors
