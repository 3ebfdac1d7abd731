#pragma once

#include <boost/json/object.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include "base/result.hpp"
#include "events/encoded_event.hpp"
#include "events/json_access.hpp"
#include "events/json_fields.hpp"

// An aggregate's events in their stored form, listed once: each event type
// with its stored name and its fields (json_fields.hpp). encode(), the
// is_*_event() test and decode of a codec are then the same three calls for
// every aggregate, and the compiler checks that each event has its form:
//
//   constexpr auto kProjectEvents = std::make_tuple(
//       stored_event<ProjectUpdated>(kProjectUpdatedV1, kProjectUpdatedFields), ...);
//   encode_event(event, kProjectEvents);
//   is_stored_event(type, kProjectEvents);
//   decode_event<ProjectEvent>(type, data, "a project event", kProjectEvents);
namespace vouch::events::json_access {

template <class Event, class Fields>
struct StoredEvent {
  using Type = Event;
  std::string_view type;  // the stored name, e.g. "ProjectUpdated.v1"
  Fields fields;
};

template <class Event, class Fields>
constexpr StoredEvent<Event, Fields> stored_event(std::string_view type, Fields fields) {
  return {type, fields};
}

// The stored form of whichever event `event` holds. Every alternative of
// the variant must have its entry in `events`.
template <class Variant, class... Events>
EncodedEvent encode_event(const Variant& event, const std::tuple<Events...>& events) {
  return std::visit(
      [&](const auto& alternative) {
        using Alternative = std::decay_t<decltype(alternative)>;
        static_assert((std::is_same_v<typename Events::Type, Alternative> || ...),
                      "an event without its stored form");
        std::optional<EncodedEvent> out;
        const auto encode_as = [&](const auto& stored) {
          if constexpr (std::is_same_v<typename std::decay_t<decltype(stored)>::Type,
                                       Alternative>) {
            out = encoded(stored.type, to_json(alternative, stored.fields));
          }
        };
        std::apply([&](const auto&... stored) { (encode_as(stored), ...); }, events);
        return std::move(*out);
      },
      event);
}

// Whether `type` is the stored name of one of `events`.
template <class... Events>
bool is_stored_event(std::string_view type, const std::tuple<Events...>& events) {
  return std::apply([&](const auto&... stored) { return ((stored.type == type) || ...); }, events);
}

// The event of stored name `type` whose data is `data`. kInternal "corrupt
// <type> event: …" when the data does not hold its fields, and "not <what>:
// <type>" when `type` is none of `events`.
template <class Variant, class... Events>
base::Result<Variant> decode_event(std::string_view type, std::string_view data,
                                   std::string_view what, const std::tuple<Events...>& events) {
  return read_stored<Variant>(
      data, std::string(type) + " event",
      [&](const boost::json::object& object) -> base::Result<Variant> {
        std::optional<Variant> out;
        const auto decode_as = [&](const auto& stored) {
          using Event = typename std::decay_t<decltype(stored)>::Type;
          if (!out && stored.type == type) out = Variant{from_json<Event>(object, stored.fields)};
        };
        std::apply([&](const auto&... stored) { (decode_as(stored), ...); }, events);
        if (!out)
          return base::Error::internal("not " + std::string(what) + ": " + std::string(type));
        return std::move(*out);
      });
}

}  // namespace vouch::events::json_access
