#pragma once

#include <optional>
#include <string_view>

namespace vouch::events {

// The contract's public event type ("project.created") of a stored event
// name ("ProjectCreated.v1"), or nullopt for internal events (API keys,
// accounts, delivery attempts), which webhooks and GET /v1/events never show.
std::optional<std::string_view> public_type_of(std::string_view stored_type);

}  // namespace vouch::events
