// The webhook client's kept-alive connections: an idle one is closed once it
// is older than max_idle, even when its host is never posted to again.
#include "transport/webhook_client.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>

#include "transport/webhook_target.hpp"

namespace vouch::transport {
namespace {

using Clock = std::chrono::steady_clock;

// A one-connection HTTP server on 127.0.0.1: answers one request with 200
// and keep-alive, then reports how long the client kept the connection open.
class OneShotServer {
 public:
  OneShotServer() {
    listener_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address);
    listen(listener_, 1);
    socklen_t length = sizeof address;
    getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~OneShotServer() {
    thread_.join();
    close(listener_);
  }

  std::uint16_t port() const { return port_; }
  // How long after the answer the client closed; nullopt if not within 15 s.
  std::future<std::optional<Clock::duration>> closed_after() { return closed_.get_future(); }

 private:
  void serve() {
    const int connection = accept(listener_, nullptr, nullptr);
    std::string request;
    char chunk[4096];
    while (request.find("\r\n\r\n") == std::string::npos) {
      const auto got = read(connection, chunk, sizeof chunk);
      if (got <= 0) break;
      request.append(chunk, static_cast<std::size_t>(got));
    }
    const std::string answer = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
    (void)write(connection, answer.data(), answer.size());
    const auto answered = Clock::now();
    std::optional<Clock::duration> closed;
    while (Clock::now() - answered < std::chrono::seconds(15)) {
      pollfd entry{connection, POLLIN, 0};
      if (poll(&entry, 1, 100) > 0 && read(connection, chunk, sizeof chunk) <= 0) {
        closed = Clock::now() - answered;
        break;
      }
    }
    close(connection);
    closed_.set_value(closed);
  }

  int listener_ = -1;
  std::uint16_t port_ = 0;
  std::thread thread_;
  std::promise<std::optional<Clock::duration>> closed_;
};

TEST(WebhookClient, AnIdleConnectionIsClosedOnceOlderThanMaxIdle) {
  OneShotServer server;
  auto closed = server.closed_after();
  WebhookClient::Options options;
  options.policy = AddressPolicy({*Cidr::parse("127.0.0.0/8")});
  options.max_idle = std::chrono::seconds(1);
  auto client = WebhookClient::create(options);
  ASSERT_TRUE(client.ok()) << client.error().message;

  std::promise<OutboundResult> answered;
  OutboundRequest request;
  request.url = "http://127.0.0.1:" + std::to_string(server.port()) + "/hook";
  request.body = "{}";
  (*client)->post(request, [&answered](OutboundResult result) { answered.set_value(result); });
  const auto result = answered.get_future().get();
  EXPECT_EQ(result.status, 200u) << result.error;

  // Nothing else is posted to that host: the sweeper closes the connection.
  const auto after = closed.get();
  ASSERT_TRUE(after.has_value()) << "the idle connection was never closed";
  EXPECT_GE(*after, std::chrono::milliseconds(900));
  EXPECT_LE(*after, std::chrono::seconds(5));
}

}  // namespace
}  // namespace vouch::transport

namespace vouch::transport {
namespace {

// Found by fuzzing: an empty port kept the target's port empty.
TEST(WebhookTarget, AnEmptyPortIsTheSchemesDefaultAndABadOneIsRefused) {
  auto target = parse_webhook_target("https://hooks.example.com:/in");
  ASSERT_TRUE(target.ok()) << target.error().message;
  EXPECT_EQ(target->port, "443");
  EXPECT_EQ(target->pool_key, "https://hooks.example.com:443");
  EXPECT_FALSE(parse_webhook_target("http://hooks.example.com:0/in").ok());
  EXPECT_EQ(parse_webhook_target("http://10.0.0.1:8080").value().resource, "/");
}

}  // namespace
}  // namespace vouch::transport
