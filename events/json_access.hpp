#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "events/encoded_event.hpp"

// Small, strict readers for stored JSON (event data, read-model records), and
// the writers the codecs share. Stored data is written by this program, so a
// missing or mistyped field means corruption: each reader throws
// CorruptRecord, which read_stored() turns into an Error at the codec's edge.
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
bool bool_at(const boost::json::object& object, std::string_view key);
std::optional<bool> optional_bool_at(const boost::json::object& object, std::string_view key);
// An array of strings.
std::vector<std::string> strings_at(const boost::json::object& object, std::string_view key);
boost::json::array strings_to_json(const std::vector<std::string>& values);

// Whether any number in `value` (at any depth) that JSON holds as a double
// satisfies `test`.
bool any_double(const boost::json::value& value, const std::function<bool(double)>& test);

// Parses `text` as a JSON object or throws CorruptRecord.
boost::json::object parse_object(std::string_view text, std::string_view what);

// The one way a codec reads stored JSON: `text` parsed as an object and
// handed to `read`, which returns the value (or an Error) and throws
// CorruptRecord for a missing or mistyped field. kInternal "corrupt <what>:
// <reason>" when the text is not a JSON object or `read` throws.
template <class T, class Read>
base::Result<T> read_stored(std::string_view text, std::string_view what, Read&& read) {
  try {
    return base::Result<T>(read(parse_object(text, what)));
  } catch (const CorruptRecord& corrupt) {
    return base::Error::internal("corrupt " + std::string(what) + ": " + corrupt.what);
  }
}

// An event of stored type `type` with `data` as its JSON text.
EncodedEvent encoded(std::string_view type, const boost::json::object& data);

}  // namespace vouch::events::json_access
