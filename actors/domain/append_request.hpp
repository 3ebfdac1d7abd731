#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/ids.hpp"
#include "events/event_record.hpp"
#include "store/event_log.hpp"

// The one way an actor turns the events it decided into an append: each
// encoded with its aggregate's codec (found by argument-dependent lookup, so
// the caller includes that codec), under a new time-ordered event id, with
// the owning account and the time.
namespace vouch::actors {

template <class Event>
void add_event(store::AppendRequest& request, const Event& event, const std::string& account,
               base::Millis at) {
  auto encoded = encode(event);
  request.events.push_back({base::new_time_ordered_id(base::kEventIdPrefix),
                            std::move(encoded.type), account, at, std::move(encoded.data)});
}

// `decided` appended to `stream`, which must be at `expected_version`
// (store::kAnyVersion: anywhere).
template <class Event>
store::AppendRequest append_request(std::string stream, std::uint64_t expected_version,
                                    const std::vector<Event>& decided, const std::string& account,
                                    base::Millis at) {
  store::AppendRequest request{std::move(stream), expected_version, {}};
  request.events.reserve(decided.size());
  for (const auto& event : decided) add_event(request, event, account, at);
  return request;
}

}  // namespace vouch::actors
