#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

// Small, strict readers for stored JSON (event data, read-model records).
// Stored data is written by this program, so a missing or mistyped field
// means corruption: each reader throws CorruptRecord, which codecs turn into
// an Error at their edge.
namespace vouch::events::json_access {

struct CorruptRecord {
  std::string what;
};

const boost::json::object& as_object(const boost::json::value& value, std::string_view what);
std::string string_at(const boost::json::object& object, std::string_view key);
double number_at(const boost::json::object& object, std::string_view key);
std::int64_t int_at(const boost::json::object& object, std::string_view key);
std::optional<std::string> optional_string_at(const boost::json::object& object,
                                              std::string_view key);
std::optional<double> optional_number_at(const boost::json::object& object, std::string_view key);

// Whether any number in `value` (at any depth) that JSON holds as a double
// satisfies `test`.
bool any_double(const boost::json::value& value, const std::function<bool(double)>& test);

// Parses `text` as a JSON object or throws CorruptRecord.
boost::json::object parse_object(std::string_view text, std::string_view what);

}  // namespace vouch::events::json_access
