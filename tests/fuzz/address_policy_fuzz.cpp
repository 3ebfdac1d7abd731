// Webhook URLs and the address policy (SSRF protection): parsing arbitrary
// text, and the properties the policy rests on.
#include "events/webhook.hpp"
#include "fuzz_input.hpp"
#include "transport/address_policy.hpp"
#include "transport/webhook_target.hpp"

using namespace vouch;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto fields = fuzz::split_input(data, size, 2);
  const auto url_refusal = events::check_webhook_url(fields[0], false);
  // An http:// URL is never accepted when only https is allowed.
  if (fields[0].starts_with("http://")) VOUCH_FUZZ_CHECK(url_refusal.has_value());
  (void)events::check_webhook_url(fields[0], true);
  // Where a URL sends to: a request line's target always starts with '/',
  // and connections are pooled by scheme, host and port.
  if (auto target = transport::parse_webhook_target(fields[0]); target.ok()) {
    VOUCH_FUZZ_CHECK(!target->resource.empty() && target->resource.front() == '/');
    VOUCH_FUZZ_CHECK(!target->host.empty() && !target->port.empty());
    VOUCH_FUZZ_CHECK(target->pool_key.starts_with(target->tls ? "https://" : "http://"));
  }
  (void)events::is_valid_event_pattern(fields[0]);

  if (const auto address = transport::IpAddress::parse(fields[0])) {
    // The printed form parses back to the same address.
    const auto again = transport::IpAddress::parse(address->to_string());
    VOUCH_FUZZ_CHECK(again.has_value());
    VOUCH_FUZZ_CHECK(again->bytes == address->bytes && again->v4 == address->v4);
    // A v4-mapped address is judged as its IPv4 address.
    const auto unmapped = address->unmapped();
    VOUCH_FUZZ_CHECK(transport::special_purpose_reason(*address).has_value() ==
                     transport::special_purpose_reason(unmapped).has_value());
    const transport::AddressPolicy strict;
    VOUCH_FUZZ_CHECK(strict.refusal(*address).has_value() ==
                     transport::special_purpose_reason(unmapped).has_value());
    if (const auto cidr = transport::Cidr::parse(fields[1])) {
      // An allowed range admits its own members, whatever else they are.
      const transport::AddressPolicy allowing({*cidr});
      if (cidr->contains(unmapped)) VOUCH_FUZZ_CHECK(!allowing.refusal(*address).has_value());
    }
  }
  (void)transport::Cidr::parse(fields[0]);
  return 0;
}
