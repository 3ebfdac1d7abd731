#pragma once

#include <boost/json/object.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "events/event_record.hpp"

// Public events: the published, versioned form of the stored events that
// webhooks, GET /v1/events and `vouchd replay --public` show. This is the one
// mapping from a stored event to its public form: the API resources' field
// names and shapes (resource_json.hpp), ISO 8601 timestamps, whole numbers as
// integers, and no internal field (account, hashes, sources, secrets). Stored
// events are decoded by their codecs first, so the stored format can change
// (a ".v2" stored name) without changing the public one.
namespace vouch::events {

// The contract's public event type ("project.created") of a stored event
// name ("ProjectCreated.v1"), or nullopt for internal events (API keys,
// accounts, generated tests, webhooks, delivery attempts).
std::optional<std::string_view> public_type_of(std::string_view stored_type);

// The schema version of a public type's data (the envelope's "version").
// Adding a field keeps the version; removing, renaming or retyping one makes
// a new version with its own JSON Schema in docs/openapi.json.
inline constexpr int kPublicEventVersion = 1;

struct PublicEvent {
  std::string id;    // evt_…
  std::string type;  // "test.completed"
  int version = kPublicEventVersion;
  base::Millis created = 0;
  std::string project_id;  // the project the event concerns (GET /v1/events?projectId=)
  boost::json::object data;
};

// The public form of `record`: nullopt for an internal event, kInternal when
// its stored data is corrupt.
[[nodiscard]] base::Result<std::optional<PublicEvent>> to_public_event(const RecordedEvent& record);

// The envelope {id, type, version, created, data} as JSON text: a webhook's
// body, an item of GET /v1/events, a line of `vouchd replay --public`.
std::string encode_public_event(const PublicEvent& event);

// to_public_event then encode_public_event. REQUIRES: public_type_of(type).
[[nodiscard]] base::Result<std::string> public_envelope(const RecordedEvent& record);

}  // namespace vouch::events
