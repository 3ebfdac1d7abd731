#include "actors/domain/event_store_actor.hpp"

#include <unordered_map>

#include "actors/errors.hpp"

namespace vouch::actors {
namespace {

struct EventStoreState {
  std::uint64_t next_ticket = 1;
  std::unordered_map<std::uint64_t, caf::typed_response_promise<store::AppendResult>> waiting;
  static inline const char* name = "vouch.event-store";
};

template <class Deliver>
void settle(event_store_actor::stateful_pointer<EventStoreState> self, std::uint64_t ticket,
            Deliver deliver) {
  auto it = self->state.waiting.find(ticket);
  if (it == self->state.waiting.end()) return;
  deliver(it->second);
  self->state.waiting.erase(it);
}

event_store_actor::behavior_type event_store(
    event_store_actor::stateful_pointer<EventStoreState> self, store::EventLog* log) {
  return {
      [self, log](append_atom, store::AppendRequest& request) {
        auto promise = self->make_response_promise<store::AppendResult>();
        const auto ticket = self->state.next_ticket++;
        self->state.waiting.emplace(ticket, promise);
        // The callback runs on the log's writer thread: it may only enqueue a
        // message (thread-safe), never touch this actor's state.
        log->append_async(std::move(request), [handle = event_store_actor{self},
                                               ticket](base::Result<store::AppendResult> result) {
          if (result.ok()) {
            caf::anon_send(handle, appended_atom_v, ticket, std::move(result).value());
          } else {
            caf::anon_send(handle, appended_atom_v, ticket, std::move(result).error());
          }
        });
        return promise;
      },
      [self](appended_atom, std::uint64_t ticket, store::AppendResult& result) {
        settle(self, ticket, [&](auto& promise) { promise.deliver(std::move(result)); });
      },
      [self](appended_atom, std::uint64_t ticket, base::Error& error) {
        settle(self, ticket,
               [&](auto& promise) { promise.deliver(to_caf_error(std::move(error))); });
      },
  };
}

}  // namespace

event_store_actor spawn_event_store(caf::actor_system& system, store::EventLog& log) {
  return system.spawn(event_store, &log);
}

}  // namespace vouch::actors
