#pragma once

#include <string>
#include <string_view>

#include "base/result.hpp"

// Where a webhook URL sends to: parsed once per URL (Boost.URL), then used
// to resolve, connect, verify the certificate and write the request.
namespace vouch::transport {

struct WebhookTarget {
  bool tls = true;
  std::string host;         // to resolve; an IPv6 literal without brackets
  bool host_is_ip = false;  // no SNI; the certificate must name the address
  std::string port;
  std::string host_header;  // host[:port] as sent in Host
  std::string resource;     // path and query
  std::string pool_key;     // scheme://host:port
};

// kInvalid unless `text` is an absolute http(s) URL with a usable host.
base::Result<WebhookTarget> parse_webhook_target(std::string_view text);

}  // namespace vouch::transport
