#include "actors/cluster/network.hpp"

#include <boost/asio/ip/address.hpp>
#include <fstream>

namespace vouch::actors {

base::Status check_network(const NetworkOptions& options, const std::string& host) {
  const int given = !options.ca.empty() + !options.cert.empty() + !options.key.empty();
  if (given != 0 && given != 3) {
    return base::Error::invalid(
        "--workers-ca, --workers-cert and --workers-key go together (mutual TLS)");
  }
  for (const auto& file : {options.ca, options.cert, options.key}) {
    if (file.empty()) continue;
    std::ifstream in(file);
    if (!in) return base::Error::invalid("cannot read " + file.string());
  }
  if (given == 0) {
    boost::system::error_code ec;
    const auto address = boost::asio::ip::make_address(host, ec);
    const bool loopback = host == "localhost" || (!ec && address.is_loopback());
    if (!loopback) {
      return base::Error::invalid(
          "workers on " + host +
          " need --workers-ca, --workers-cert and --workers-key: without certificates only "
          "loopback is allowed");
    }
  }
  return base::ok_status();
}

base::Result<std::pair<std::string, std::uint16_t>> parse_host_port(std::string_view text) {
  const auto refuse = [&](const std::string& why) {
    return base::Error::invalid("\"" + std::string(text) + "\" is not HOST:PORT (" + why + ")");
  };
  const auto colon = text.rfind(':');
  if (colon == std::string_view::npos) return refuse("no port");
  std::string_view host = text.substr(0, colon);
  const std::string_view port_text = text.substr(colon + 1);
  if (!host.empty() && host.front() == '[') {
    if (host.size() < 3 || host.back() != ']') return refuse("an unclosed [");
    host = host.substr(1, host.size() - 2);
  } else if (host.find_first_of(":[]") != std::string_view::npos) {
    return refuse("an IPv6 host goes in brackets: [::1]:8080");
  }
  if (host.empty()) return refuse("no host");
  if (host.find_first_of(" \t/@") != std::string_view::npos) return refuse("a bad host");
  if (port_text.empty() || port_text.size() > 5) return refuse("the port must be 0 to 65535");
  std::uint32_t port = 0;
  for (const char digit : port_text) {
    if (digit < '0' || digit > '9') return refuse("the port must be 0 to 65535");
    port = port * 10 + static_cast<std::uint32_t>(digit - '0');
  }
  if (port > 65535) return refuse("the port must be 0 to 65535");
  return std::pair{std::string(host), static_cast<std::uint16_t>(port)};
}

}  // namespace vouch::actors
