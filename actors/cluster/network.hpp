#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

#include "base/result.hpp"

// How a server and its workers reach each other: CAF's remote actors
// (caf::io's middleman), over TLS with mutual certificate authentication
// (caf::openssl) when certificates are given. No CAF in this header.
namespace vouch::actors {

struct NetworkOptions {
  bool enabled = false;  // load CAF's middleman at all
  // All three or none: this side's certificate chain and key, and the CA
  // that must have signed the peer's certificate.
  std::filesystem::path ca;
  std::filesystem::path cert;
  std::filesystem::path key;

  bool tls() const { return !cert.empty(); }
};

// kInvalid when only some of the TLS files are given or one cannot be read,
// or when `host` (where a server listens for workers, or the server a worker
// connects to) is not a loopback address and no certificates are given:
// without them CAF's connections are neither encrypted nor authenticated.
[[nodiscard]] base::Status check_network(const NetworkOptions& options, const std::string& host);

// "HOST:PORT" → host and port: the one parser of every address vouchd is
// given (--listen, --workers-listen, --connect). PORT is 0 to 65535 in
// decimal digits only; an IPv6 host is bracketed ("[::1]:8080", host "::1").
// kInvalid, saying what is wrong, for anything else.
[[nodiscard]] base::Result<std::pair<std::string, std::uint16_t>> parse_host_port(
    std::string_view text);

}  // namespace vouch::actors
