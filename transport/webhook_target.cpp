#include "transport/webhook_target.hpp"

#include <boost/url/parse.hpp>

namespace vouch::transport {

base::Result<WebhookTarget> parse_webhook_target(std::string_view text) {
  auto url = boost::urls::parse_absolute_uri(text);
  if (!url) return base::Error::invalid("not an absolute URL: " + url.error().message());
  WebhookTarget target;
  if (url->scheme_id() == boost::urls::scheme::https) {
    target.tls = true;
  } else if (url->scheme_id() == boost::urls::scheme::http) {
    target.tls = false;
  } else {
    return base::Error::invalid("not an http(s) URL");
  }
  switch (url->host_type()) {
    case boost::urls::host_type::ipv4:
      target.host = url->host_ipv4_address().to_string();
      target.host_is_ip = true;
      break;
    case boost::urls::host_type::ipv6:
      target.host = url->host_ipv6_address().to_string();
      target.host_is_ip = true;
      break;
    case boost::urls::host_type::name:
      target.host = url->host_name();
      break;
    default:
      return base::Error::invalid("the URL has no usable host");
  }
  if (target.host.empty()) return base::Error::invalid("the URL has no host");
  // An empty port ("https://host:/") is the scheme's default (RFC 3986 3.2.3;
  // found by fuzzing: it was kept empty, and resolving failed).
  const bool has_port = url->has_port() && !url->port().empty();
  if (has_port && (url->port_number() == 0 || url->port().size() > 5)) {
    return base::Error::invalid("the URL's port is not 1 to 65535");
  }
  target.port = has_port ? std::string(url->port()) : (target.tls ? "443" : "80");
  target.host_header = std::string(url->encoded_host_and_port());
  target.resource = std::string(url->encoded_target());
  if (target.resource.empty() || target.resource.front() != '/') {
    target.resource.insert(0, "/");
  }
  target.pool_key =
      std::string(target.tls ? "https://" : "http://") + target.host + ":" + target.port;
  return target;
}

}  // namespace vouch::transport
