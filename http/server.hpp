#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "events/result.hpp"
#include "http/message.hpp"

namespace vouch::http {

struct ServerOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8080;  // 0 picks a free port
  std::size_t threads = 2;
  std::size_t max_connections = 4096;
  std::uint32_t header_limit = 16 * 1024;
  std::uint64_t body_limit = 1024 * 1024;  // larger bodies get 413
  std::chrono::seconds read_timeout{30};   // for a whole request, and idle keep-alive
  std::chrono::seconds drain_timeout{10};  // SIGTERM waits this long for in-flight requests
  // Runs once when SIGTERM or SIGINT arrives, before the drain: lets requests
  // that wait for something (long polls) answer now.
  std::function<void()> on_drain;
};

// The Beast HTTP/1.1 server: keep-alive, one request at a time per
// connection, explicit limits. It hands each request to `handler` and writes
// whatever it responds, on the connection's strand.
class Server {
 public:
  using Handler = std::function<void(Request, Respond)>;

  Server(ServerOptions options, Handler handler);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds and listens; kUnavailable with the reason when the address is taken.
  [[nodiscard]] events::Status listen();
  std::uint16_t port() const;  // REQUIRES: listen() succeeded

  // Serves until SIGTERM or SIGINT, then stops accepting, lets in-flight
  // requests finish (up to drain_timeout) and returns.
  void run();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vouch::http
