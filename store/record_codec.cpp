#include "store/record_codec.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <cmath>

#include "events/json_access.hpp"

namespace vouch::store {

namespace ja = events::json_access;

std::string encode_record(const events::RecordedEvent& record) {
  boost::json::object envelope{{"position", record.position},    {"stream", record.stream},
                               {"version", record.version},      {"id", record.event.id},
                               {"type", record.event.type},      {"account", record.event.account},
                               {"created", record.event.created}};
  // The data is already JSON; splice it in rather than parse and re-encode it.
  std::string out = boost::json::serialize(envelope);
  out.pop_back();
  out += ",\"data\":";
  out += record.event.data;
  out += '}';
  return out;
}

base::Result<events::RecordedEvent> decode_record(std::string_view bytes) {
  return ja::read_stored<events::RecordedEvent>(
      bytes, "event record",
      [&](const boost::json::object& object) -> base::Result<events::RecordedEvent> {
        const auto* data = object.if_contains("data");
        if (!data || !data->is_object()) throw ja::CorruptRecord{"missing data object"};
        // A literal beyond double's range parses as infinity, which JSON cannot
        // print back (found by fuzzing).
        if (ja::any_double(*data, [](double number) { return !std::isfinite(number); })) {
          throw ja::CorruptRecord{"a number out of range in data"};
        }
        events::RecordedEvent record;
        record.position = static_cast<std::uint64_t>(ja::int_at(object, "position"));
        record.stream = ja::string_at(object, "stream");
        record.version = static_cast<std::uint64_t>(ja::int_at(object, "version"));
        record.event.id = ja::string_at(object, "id");
        record.event.type = ja::string_at(object, "type");
        record.event.account = ja::string_at(object, "account");
        record.event.created = ja::int_at(object, "created");
        record.event.data = boost::json::serialize(*data);
        return record;
      });
}

std::optional<std::string_view> peek_record_type(std::string_view bytes) {
  // encode_record() writes position, stream, version, id, then type, and
  // JSON-escapes every string: inside one, a quote is always preceded by a
  // backslash, so the first `,"type":"` is the key itself.
  constexpr std::string_view kKey = ",\"type\":\"";
  const auto at = bytes.find(kKey);
  if (at == std::string_view::npos) return std::nullopt;
  const auto begin = at + kKey.size();
  const auto end = bytes.find('"', begin);
  if (end == std::string_view::npos) return std::nullopt;
  const auto type = bytes.substr(begin, end - begin);
  if (type.find('\\') != std::string_view::npos) return std::nullopt;  // escaped: decode
  return type;
}

}  // namespace vouch::store
