#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "http/message.hpp"

namespace vouch::http {

struct ServerOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8080;  // 0 picks a free port
  std::size_t threads = 2;
  // Open connections at most; 0 derives it from the open-file limit, keeping
  // a quarter of the descriptors for the database, runners and webhooks.
  std::size_t max_connections = 0;
  // Open connections from one client address at most; 0: half of max_connections.
  std::size_t max_connections_per_address = 0;
  std::uint32_t header_limit = 16 * 1024;
  std::uint64_t body_limit = 1024 * 1024;  // larger bodies get 413
  // Uploads: a request `large_body(method, target)` picks may send up to
  // large_body_limit bytes instead. At most large_bodies_at_once of them are
  // held at once (from their header to their response); another one answers
  // 503 with Retry-After before its body is read.
  std::function<bool(std::string_view method, std::string_view target)> large_body;
  std::uint64_t large_body_limit = 0;
  std::size_t large_bodies_at_once = 4;
  // A connection waiting for the first byte of a request (new or kept alive).
  std::chrono::seconds idle_timeout{15};
  // From the first byte of a request to the end of its header: a client
  // that trickles its header (slowloris) is closed after this.
  std::chrono::seconds header_timeout{10};
  std::chrono::seconds body_timeout{30};   // from the end of the header to the end of the body
  std::chrono::seconds write_timeout{30};  // for writing one response
  std::chrono::seconds drain_timeout{10};  // SIGTERM waits this long for in-flight requests
  // Runs once when SIGTERM or SIGINT arrives, before the drain: lets requests
  // that wait for something (long polls) answer now.
  std::function<void()> on_drain;
};

// The Beast HTTP/1.1 server: keep-alive, one request at a time per
// connection, explicit limits. It hands each request to `handler` and writes
// whatever it responds, on the connection's thread.
//
// Slow and idle clients cannot starve others: each phase of a request has its
// own deadline, and when the connection limit (overall or for one address) is
// reached, a new connection closes the longest-idle one instead of being
// refused; it is refused only when no connection is idle.
class Server {
 public:
  using Handler = std::function<void(Request, Respond)>;

  Server(ServerOptions options, Handler handler);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds and listens; kUnavailable with the reason when the address is taken.
  [[nodiscard]] base::Status listen();
  std::uint16_t port() const;  // REQUIRES: listen() succeeded

  // Serves until SIGTERM or SIGINT, then stops accepting, lets in-flight
  // requests finish (up to drain_timeout) and returns.
  void run();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vouch::http
