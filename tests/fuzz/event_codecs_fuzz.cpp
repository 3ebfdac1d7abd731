// The event codecs: stored records and every aggregate's events, decoded
// from arbitrary bytes. Whatever decodes re-encodes to a fixed point:
// encode(decode(encode(decode(x)))) == encode(decode(x)). The public mapping
// of whatever record decodes never crashes.
#include <boost/json/parse.hpp>
#include <cmath>

#include "events/access.hpp"
#include "events/json_access.hpp"
#include "events/project.hpp"
#include "events/public_types.hpp"
#include "events/webhook.hpp"
#include "fuzz_input.hpp"
#include "store/record_codec.hpp"

using namespace vouch;

namespace {

// Whether a JSON value holds a number beyond 2^53 that Boost.JSON 1.81 reads
// as a double: its parser is not correctly rounded there, so such a number
// may print differently after a round trip. Our codecs never write one (they
// write int64 integers); only a damaged record can hold it.
bool has_inexact_number(const boost::json::value& value) {
  return events::json_access::any_double(
      value, [](double number) { return std::abs(number) >= 9007199254740992.0; });
}

// Whether JSON writes the string with an escape: a quote, a backslash or a
// control character in it.
bool needs_json_escape(std::string_view text) {
  for (const unsigned char c : text) {
    if (c == '"' || c == '\\' || c < 0x20) return true;
  }
  return false;
}

template <class Decode>
void check_fixed_point(std::string_view type, std::string_view data, Decode decode) {
  auto first = decode(type, data);
  if (!first.ok()) return;
  const auto encoded = events::encode(*first);
  auto second = decode(encoded.type, encoded.data);
  VOUCH_FUZZ_CHECK(second.ok());
  const auto again = events::encode(*second);
  VOUCH_FUZZ_CHECK(again.type == encoded.type);
  VOUCH_FUZZ_CHECK(again.data == encoded.data);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  if (auto record = store::decode_record(bytes);
      record.ok() && !has_inexact_number(boost::json::parse(record->event.data))) {
    const auto encoded = store::encode_record(*record);
    auto again = store::decode_record(encoded);
    VOUCH_FUZZ_CHECK(again.ok());
    VOUCH_FUZZ_CHECK(store::encode_record(*again) == encoded);
    // The peek agrees with the decoder, or declines (a type JSON had to escape) and leaves the
    // record to the decoder.
    const auto peeked = store::peek_record_type(encoded);
    VOUCH_FUZZ_CHECK(peeked ? *peeked == std::string_view(again->event.type)
                            : needs_json_escape(again->event.type));
    // The public mapping of any record: a public event for a public type whose data decodes,
    // nothing for an internal one, an error (never a crash) otherwise; and its envelope parses.
    auto published = events::to_public_event(*record);
    if (published.ok() && *published) {
      VOUCH_FUZZ_CHECK(events::public_type_of(record->event.type).has_value());
      const auto text = events::encode_public_event(**published);
      VOUCH_FUZZ_CHECK(boost::json::parse(text).as_object().at("data").is_object());
    }
  }
  const auto fields = fuzz::split_input(data, size, 2);
  check_fixed_point(fields[0], fields[1], events::decode_project_event);
  check_fixed_point(fields[0], fields[1], events::decode_account_event);
  check_fixed_point(fields[0], fields[1], events::decode_api_key_event);
  check_fixed_point(fields[0], fields[1], events::decode_webhook_event);
  if (auto attempt = events::decode_delivery_attempted(bytes); attempt.ok()) {
    const auto encoded = events::encode(*attempt);
    auto again = events::decode_delivery_attempted(encoded.data);
    VOUCH_FUZZ_CHECK(again.ok());
    VOUCH_FUZZ_CHECK(events::encode(*again).data == encoded.data);
  }
  (void)events::decode_project(bytes);
  (void)events::decode_webhook_record(bytes);
  return 0;
}
