#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "events/event_record.hpp"

namespace vouch::events {

// The contract's public event type ("project.created") of a stored event
// name ("ProjectCreated.v1"), or nullopt for internal events (API keys,
// accounts, delivery attempts), which webhooks and GET /v1/events never show.
std::optional<std::string_view> public_type_of(std::string_view stored_type);

// The event as webhooks and GET /v1/events show it: {id, type, created, data},
// data being the stored data. nullopt for internal events.
std::optional<std::string> public_envelope(const RecordedEvent& record);

}  // namespace vouch::events
