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

base::Result<std::pair<std::string, std::uint16_t>> parse_host_port(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) {
    return base::Error::invalid(text + " is not HOST:PORT");
  }
  unsigned long port = 0;
  for (std::size_t i = colon + 1; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return base::Error::invalid(text + " is not HOST:PORT");
    port = port * 10 + static_cast<unsigned long>(text[i] - '0');
    if (port > 65535) return base::Error::invalid(text + " is not HOST:PORT");
  }
  return std::pair{text.substr(0, colon), static_cast<std::uint16_t>(port)};
}

}  // namespace vouch::actors
