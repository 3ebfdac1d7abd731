#pragma once

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>
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
// them, in the same order, with the strict readers of json_access.hpp. A
// codec whose two directions are field-for-field the same says so with one
// list instead of two that must agree.
//
//   constexpr auto kProjectFields = std::make_tuple(field("id", &Project::id), ...);
//   auto object = to_json(project, kProjectFields);
//   auto project = from_json<Project>(object, kProjectFields);
//
// Members are strings, booleans, numbers (read back through int64 or
// double), lists of strings, or optionals of those: an empty optional is
// left out when writing and an absent key reads as nullopt. A member with a
// JSON form of its own names the two functions that write and read it
// (field(key, member, write, read)); a struct member whose fields stand
// beside the others names its own list (inline_fields).
namespace vouch::events::json_access {

// `kMayBeAbsent`: written as any other, but read only when present; absent
// (in data written before the member existed), it keeps T's default.
template <class T, class Member, bool kMayBeAbsent = false>
struct Field {
  std::string_view key;
  Member T::*member;
};

template <class T, class Member>
constexpr Field<T, Member> field(std::string_view key, Member T::*member) {
  return {key, member};
}

template <class T, class Member>
constexpr Field<T, Member, true> field_or_default(std::string_view key, Member T::*member) {
  return {key, member};
}

// A member written as `write(member)` and read as `read(object, key)`,
// which throws CorruptRecord when the value is missing or malformed. For an
// optional member they handle the value inside: an empty one is written as
// null, and an absent or null key reads as nullopt.
template <class T, class Member, class Write, class Read>
struct CustomField {
  std::string_view key;
  Member T::*member;
  Write write;
  Read read;
};

template <class T, class Member, class Write, class Read>
constexpr CustomField<T, Member, Write, Read> field(std::string_view key, Member T::*member,
                                                    Write write, Read read) {
  return {key, member, write, read};
}

// A member whose own fields stand in the object beside the others, not
// nested under a key (the project of ProjectCreated is its data).
template <class T, class Member, class Fields>
struct InlineFields {
  Member T::*member;
  Fields fields;
};

template <class T, class Member, class Fields>
constexpr InlineFields<T, Member, Fields> inline_fields(Member T::*member, Fields fields) {
  return {member, fields};
}

template <class T, class Fields>
boost::json::object to_json(const T& value, const Fields& fields);
template <class T, class Fields>
T from_json(const boost::json::object& object, const Fields& fields);

namespace fields_detail {

template <class V>
struct is_optional : std::false_type {};
template <class V>
struct is_optional<std::optional<V>> : std::true_type {};

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

template <class T, class Member, bool kMayBeAbsent>
void write_field(boost::json::object& object, const T& value,
                 const Field<T, Member, kMayBeAbsent>& field) {
  put(object, field.key, value.*field.member);
}

template <class T, class Member, class Write, class Read>
void write_field(boost::json::object& object, const T& value,
                 const CustomField<T, Member, Write, Read>& field) {
  const auto& member = value.*field.member;
  if constexpr (is_optional<Member>::value) {
    if (!member) {
      object[field.key] = nullptr;
      return;
    }
    object[field.key] = field.write(*member);
  } else {
    object[field.key] = field.write(member);
  }
}

template <class T, class Member, bool kMayBeAbsent>
void read_field(const boost::json::object& object, T& value,
                const Field<T, Member, kMayBeAbsent>& field) {
  if (kMayBeAbsent && !object.contains(field.key)) return;
  read(object, field.key, value.*field.member);
}

template <class T, class Member, class Write, class Read>
void read_field(const boost::json::object& object, T& value,
                const CustomField<T, Member, Write, Read>& field) {
  if constexpr (is_optional<Member>::value) {
    const auto* found = object.if_contains(field.key);
    if (!found || found->is_null()) return;
  }
  value.*field.member = field.read(object, field.key);
}

template <class T, class Member, class Fields>
void write_field(boost::json::object& object, const T& value,
                 const InlineFields<T, Member, Fields>& field) {
  for (const auto& [key, each] : to_json(value.*field.member, field.fields)) object[key] = each;
}

template <class T, class Member, class Fields>
void read_field(const boost::json::object& object, T& value,
                const InlineFields<T, Member, Fields>& field) {
  value.*field.member = from_json<Member>(object, field.fields);
}

}  // namespace fields_detail

// The members of `value` that `fields` (a std::tuple of fields) names.
template <class T, class Fields>
boost::json::object to_json(const T& value, const Fields& fields) {
  boost::json::object object;
  std::apply([&](const auto&... each) { (fields_detail::write_field(object, value, each), ...); },
             fields);
  return object;
}

// A T with the members that `fields` names read from `object`, the others as
// T's defaults. Throws CorruptRecord for a missing or mistyped field.
template <class T, class Fields>
T from_json(const boost::json::object& object, const Fields& fields) {
  T value;
  std::apply([&](const auto&... each) { (fields_detail::read_field(object, value, each), ...); },
             fields);
  return value;
}

// A record's stored text: the JSON object of its fields.
template <class T, class Fields>
std::string serialize(const T& value, const Fields& fields) {
  return boost::json::serialize(to_json(value, fields));
}

// The record that `text` stores; kInternal "corrupt <what>: …" when it is
// not a JSON object of `fields`.
template <class T, class Fields>
base::Result<T> parse(std::string_view text, std::string_view what, const Fields& fields) {
  return read_stored<T>(
      text, what, [&](const boost::json::object& object) { return from_json<T>(object, fields); });
}

}  // namespace vouch::events::json_access
