#include "events/json_access.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace vouch::events::json_access {
namespace {

const boost::json::value& at(const boost::json::object& object, std::string_view key) {
  const auto* found = object.if_contains(key);
  if (!found) throw CorruptRecord{"missing field \"" + std::string(key) + "\""};
  return *found;
}

}  // namespace

const boost::json::object& as_object(const boost::json::value& value, std::string_view what) {
  if (!value.is_object()) throw CorruptRecord{std::string(what) + " is not an object"};
  return value.get_object();
}

std::string string_at(const boost::json::object& object, std::string_view key) {
  const auto& value = at(object, key);
  if (!value.is_string()) throw CorruptRecord{"field \"" + std::string(key) + "\" is not a string"};
  return std::string(value.get_string());
}

double number_at(const boost::json::object& object, std::string_view key) {
  const auto& value = at(object, key);
  if (!value.is_number()) throw CorruptRecord{"field \"" + std::string(key) + "\" is not a number"};
  return value.to_number<double>();
}

std::int64_t int_at(const boost::json::object& object, std::string_view key) {
  const auto& value = at(object, key);
  if (value.is_int64()) return value.get_int64();
  if (value.is_uint64()) return static_cast<std::int64_t>(value.get_uint64());
  throw CorruptRecord{"field \"" + std::string(key) + "\" is not an integer"};
}

std::optional<std::string> optional_string_at(const boost::json::object& object,
                                              std::string_view key) {
  if (!object.contains(key)) return std::nullopt;
  return string_at(object, key);
}

std::optional<double> optional_number_at(const boost::json::object& object, std::string_view key) {
  if (!object.contains(key)) return std::nullopt;
  return number_at(object, key);
}

bool bool_at(const boost::json::object& object, std::string_view key) {
  const auto& value = at(object, key);
  if (!value.is_bool()) throw CorruptRecord{"field \"" + std::string(key) + "\" is not a boolean"};
  return value.get_bool();
}

std::optional<bool> optional_bool_at(const boost::json::object& object, std::string_view key) {
  if (!object.contains(key)) return std::nullopt;
  return bool_at(object, key);
}

std::vector<std::string> strings_at(const boost::json::object& object, std::string_view key) {
  const auto& value = at(object, key);
  if (!value.is_array()) throw CorruptRecord{"field \"" + std::string(key) + "\" is not an array"};
  std::vector<std::string> out;
  for (const auto& item : value.get_array()) {
    if (!item.is_string()) throw CorruptRecord{"an item of \"" + std::string(key) + "\""};
    out.emplace_back(item.get_string());
  }
  return out;
}

boost::json::array strings_to_json(const std::vector<std::string>& values) {
  return boost::json::array(values.begin(), values.end());
}

EncodedEvent encoded(std::string_view type, const boost::json::object& data) {
  return EncodedEvent{std::string(type), boost::json::serialize(data)};
}

boost::json::object parse_object(std::string_view text, std::string_view what) {
  boost::system::error_code ec;
  auto value = boost::json::parse(text, ec);
  if (ec) throw CorruptRecord{std::string(what) + " is not JSON: " + ec.message()};
  return as_object(value, what);
}

bool any_double(const boost::json::value& value, const std::function<bool(double)>& test) {
  if (value.is_double()) return test(value.get_double());
  if (value.is_array()) {
    for (const auto& item : value.get_array()) {
      if (any_double(item, test)) return true;
    }
  }
  if (value.is_object()) {
    for (const auto& field : value.get_object()) {
      if (any_double(field.value(), test)) return true;
    }
  }
  return false;
}

}  // namespace vouch::events::json_access
