#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>

namespace vouch::testing {

struct HttpResponse {
  unsigned status = 0;  // 0 when no answer came (connection refused or reset)
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body{};

  std::string header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? "" : it->second;
  }
};

struct HttpRequest {
  std::string method = "GET";
  std::string target = "/";
  std::string key{};  // sent as "Authorization: Bearer <key>" when not empty
  std::string body{};
  std::string content_type = "application/json";  // sent when a body is
  std::map<std::string, std::string> headers{};
  // Whether the exchange goes to VOUCH_EXCHANGE_LOG: false for servers other
  // than vouchd (the webhook receiver's control paths).
  bool to_vouchd = true;
};

// A blocking HTTP/1.1 client for tests: one connection per request. When the
// environment names a file in VOUCH_EXCHANGE_LOG, each exchange with vouchd
// that got an answer is appended to it as one JSON line {source: "api", test,
// method, target, status, headers, body}; tests/openapi/validate.js checks
// every one against docs/openapi.json.
// A call that gets no whole answer within kCallDeadline returns an empty
// response (status 0).
inline constexpr std::chrono::seconds kCallDeadline{300};

// Whether the vouchd listening on `port` was started with --no-rate-limits
// (VouchdProcess says so): its exchanges are logged with "rateLimits": false,
// and the validator then expects no X-RateLimit-* header, as documented.
void set_rate_limits_off(std::uint16_t port, bool off);
HttpResponse send(std::uint16_t port, const HttpRequest& request);

}  // namespace vouch::testing
