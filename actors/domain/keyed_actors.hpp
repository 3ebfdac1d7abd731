#pragma once

#include <atomic>
#include <caf/all.hpp>
#include <chrono>
#include <cstddef>
#include <functional>
#include <list>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "actors/type_ids.hpp"

// The per-id actors of a registry actor (one actor per project, per
// webhook): spawned on first use, monitored, and forgotten only once really
// gone. A message for an id whose actor is stopping waits in the registry
// and goes to a fresh actor once the old one is gone, so that there is never
// more than one actor per id, and nothing routed is lost.
//
// The live actors (spawned, not told to stop) are kept in the order of their
// last use. With a cap, starting one more than `max_live` first stops the
// least recently used; stop_idle() stops those unused for a while. Both send
// stop_atom, as an actor that asked to stop gets it.
//
// Used from the registry actor's own handlers only (not thread-safe).
namespace vouch::actors {

template <class Handle>
class KeyedActors {
 public:
  // Spawns the actor of `id`; the registry monitors it.
  using Spawn = std::function<Handle(const std::string& id)>;
  using Use = std::function<void(const Handle&)>;
  using TimePoint = caf::actor_clock::time_point;
  // The registry's clock (CAF's, so that tests on the test coordinator drive it).
  using Now = std::function<TimePoint()>;

  // `max_live` 0: no cap. `live_gauge`, when given, follows live().
  KeyedActors(Spawn spawn, Now now, std::size_t max_live = 0,
              std::atomic<std::size_t>* live_gauge = nullptr)
      : spawn_(std::move(spawn)),
        now_(std::move(now)),
        max_live_(max_live),
        live_gauge_(live_gauge) {}

  // With the registry (its state): every actor it holds ends too.
  ~KeyedActors() {
    for (const auto& [id, entry] : entries_) {
      if (entry.actor) caf::anon_send_exit(entry.actor, caf::exit_reason::user_shutdown);
    }
  }
  KeyedActors(const KeyedActors&) = delete;
  KeyedActors& operator=(const KeyedActors&) = delete;

  // Runs `use` with the id's actor: now, or once its stopping actor is gone.
  void with(const std::string& id, Use use) {
    auto& entry = entries_[id];
    if (entry.stopping) {
      entry.waiting.push_back(std::move(use));
      return;
    }
    if (!entry.actor) {
      make_room();
      start(id, entry);
    } else {
      recent_.splice(recent_.begin(), recent_, entry.recent);
    }
    entry.last_used = now_();
    use(entry.actor);
  }

  // Stops the id's actor (it asked, being idle, or it is the least recently
  // used); messages for the id wait from now on until it is gone.
  void stop(const std::string& id) {
    auto it = entries_.find(id);
    if (it == entries_.end() || !it->second.actor || it->second.stopping) return;
    auto& entry = it->second;
    entry.stopping = true;
    recent_.erase(entry.recent);
    publish_live();
    caf::anon_send(entry.actor, stop_atom_v);
  }

  // Stops every live actor not used for `idle_after`; returns how many.
  std::size_t stop_idle(std::chrono::nanoseconds idle_after) {
    const auto now = now_();
    std::size_t stopped = 0;
    while (!recent_.empty()) {
      const auto& oldest = entries_.at(recent_.back());
      if (now - oldest.last_used < idle_after) break;
      stop(recent_.back());
      ++stopped;
    }
    return stopped;
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
    if (!it->second.stopping) {  // it ended by itself
      recent_.erase(it->second.recent);
      publish_live();
    }
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

  // Ids with an actor, live or stopping.
  std::size_t size() const { return entries_.size(); }
  // Actors spawned and not told to stop.
  std::size_t live() const { return recent_.size(); }

 private:
  struct Entry {
    Handle actor;
    bool stopping = false;
    std::vector<Use> waiting;                 // messages for the id while its actor stops
    std::list<std::string>::iterator recent;  // its place in recent_ while live
    TimePoint last_used;
  };

  // Stops the least recently used actors until one more fits under the cap.
  void make_room() {
    while (max_live_ != 0 && recent_.size() >= max_live_) {
      stop(recent_.back());
    }
  }

  void start(const std::string& id, Entry& entry) {
    entry.actor = spawn_(id);
    ids_[caf::actor_cast<caf::actor_addr>(entry.actor)] = id;
    recent_.push_front(id);
    entry.recent = recent_.begin();
    publish_live();
  }

  void publish_live() {
    if (live_gauge_) live_gauge_->store(recent_.size(), std::memory_order_relaxed);
  }

  Spawn spawn_;
  Now now_;
  std::size_t max_live_;
  std::atomic<std::size_t>* live_gauge_;
  std::unordered_map<std::string, Entry> entries_;
  std::unordered_map<caf::actor_addr, std::string> ids_;
  std::list<std::string> recent_;  // ids of the live actors, most recently used first
};

// The state of a registry actor: its per-id actors. `Name` names the actor
// in CAF's logs.
template <class Handle, const char* Name>
struct RegistryState {
  std::optional<KeyedActors<Handle>> actors;
  static inline const char* name = Name;
};

// Makes the registry `self` keep its per-id actors in `actors` (a member of
// its state), at most `max_live` of them alive (0: no cap; `live_gauge`, when
// given, counts them): each spawned by `spawn(id)` and monitored, so that one
// is forgotten only once gone (through the down handler this sets); they end
// with the registry (~KeyedActors).
//
// Not linked: CAF keeps an actor's links and the monitors on it in one list
// that it scans to remove one (an unlink, a demonitor). Linked to thousands
// of per-id actors, the registry spent most of its time in those scans
// (CAF's detach_impl, under perf) as soon as actors stopped at the cap, and
// every request that monitors it on the way (Service::ask) paid one too.
template <class Handle, class Self, class SpawnFn>
void keep_keyed_actors(Self self, std::optional<KeyedActors<Handle>>& actors, SpawnFn spawn,
                       std::size_t max_live = 0, std::atomic<std::size_t>* live_gauge = nullptr) {
  actors.emplace(
      [self, spawn = std::move(spawn)](const std::string& id) {
        Handle actor = spawn(id);
        self->monitor(actor);
        return actor;
      },
      [self] { return self->clock().now(); }, max_live, live_gauge);
  self->set_down_handler([&actors](caf::down_msg& down) { actors->gone(down.source); });
}

}  // namespace vouch::actors
