#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/result.hpp"
#include "transport/address_policy.hpp"

namespace vouch::transport {

struct OutboundRequest {
  std::string url;  // absolute http(s) URL
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;                           // POSTed as is
  std::chrono::milliseconds timeout{15'000};  // for the whole exchange
};

struct OutboundResult {
  unsigned status = 0;  // 0 when no HTTP answer came
  std::optional<std::string> retry_after;
  std::string error;     // why it failed, when it did (empty for any HTTP answer)
  bool refused = false;  // the address policy refused every address of the host
  std::chrono::milliseconds duration{0};
};

// The HTTP(S) client of webhook deliveries, with Beast and OpenSSL (the only
// Beast translation unit of the actors). Certificates and host names are
// verified against the system store plus an optional CA file; redirects are
// not followed; every address is checked against the AddressPolicy after DNS
// and again once connected; connections to the same scheme, host and port
// are kept alive and reused.
//
// Runs on its own I/O thread, so a slow receiver never holds an actor thread.
class WebhookClient {
 public:
  struct Options {
    AddressPolicy policy;
    std::string ca_file;                 // extra trusted CA bundle (PEM); empty for none
    std::size_t max_idle_per_host = 64;  // kept-alive connections per scheme://host:port
    std::chrono::seconds max_idle{30};   // idle connections older than this are closed
  };
  using Done = std::function<void(OutboundResult)>;

  // kInvalid when the CA file cannot be loaded.
  [[nodiscard]] static base::Result<std::unique_ptr<WebhookClient>> create(Options options);
  ~WebhookClient();  // stops the I/O thread; callbacks of unfinished requests never run
  WebhookClient(const WebhookClient&) = delete;
  WebhookClient& operator=(const WebhookClient&) = delete;

  // Stops the I/O thread; afterwards post() queues work that never runs and
  // no callback runs any more. Idempotent.
  void shutdown();

  // POSTs `request`; `done` runs once, on the client's thread, and must not block.
  // Thread-safe.
  void post(OutboundRequest request, Done done);

  struct Impl;

 private:
  explicit WebhookClient(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace vouch::transport
