#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "events/json_access.hpp"

// A stored record's fields listed once, as (JSON key, member) pairs, for both
// directions: to_json() writes them in the listed order and from_json() reads
// them with the strict readers of json_access.hpp. A codec whose two
// directions are field-for-field the same says so with one list instead of
// two that must agree.
//
//   constexpr auto kProjectFields = std::tuple{field("id", &Project::id), ...};
//   auto object = to_json(project, kProjectFields);
//   auto project = from_json<Project>(object, kProjectFields);
//
// Members are strings, booleans, numbers (read back through int64 or
// double), lists of strings, or optionals of those: an empty optional is
// left out when writing and an absent key reads as nullopt.
namespace vouch::events::json_access {

template <class T, class Member>
struct Field {
  std::string_view key;
  Member T::*member;
};

template <class T, class Member>
constexpr Field<T, Member> field(std::string_view key, Member T::*member) {
  return {key, member};
}

namespace fields_detail {

template <class V>
void put(boost::json::object& object, std::string_view key, const V& value) {
  if constexpr (std::is_same_v<V, std::vector<std::string>>) {
    object[key] = strings_to_json(value);
  } else {
    object[key] = value;
  }
}

template <class V>
void put(boost::json::object& object, std::string_view key, const std::optional<V>& value) {
  if (value) put(object, key, *value);
}

template <class V>
V get(const boost::json::object& object, std::string_view key) {
  if constexpr (std::is_same_v<V, std::string>) {
    return string_at(object, key);
  } else if constexpr (std::is_same_v<V, bool>) {
    return bool_at(object, key);
  } else if constexpr (std::is_floating_point_v<V>) {
    return number_at(object, key);
  } else if constexpr (std::is_integral_v<V>) {
    return static_cast<V>(int_at(object, key));
  } else {
    static_assert(std::is_same_v<V, std::vector<std::string>>, "no JSON reader for this member");
    return strings_at(object, key);
  }
}

template <class V>
void read(const boost::json::object& object, std::string_view key, V& out) {
  out = get<V>(object, key);
}

template <class V>
void read(const boost::json::object& object, std::string_view key, std::optional<V>& out) {
  if (object.contains(key)) out = get<V>(object, key);
}

}  // namespace fields_detail

template <class T, class... Members>
boost::json::object to_json(const T& value, const std::tuple<Field<T, Members>...>& fields) {
  boost::json::object object;
  std::apply(
      [&](const auto&... each) { (fields_detail::put(object, each.key, value.*each.member), ...); },
      fields);
  return object;
}

// Throws CorruptRecord for a missing or mistyped field, as the readers do.
template <class T, class... Members>
T from_json(const boost::json::object& object, const std::tuple<Field<T, Members>...>& fields) {
  T value;
  std::apply(
      [&](const auto&... each) {
        (fields_detail::read(object, each.key, value.*each.member), ...);
      },
      fields);
  return value;
}

}  // namespace vouch::events::json_access
