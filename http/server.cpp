#include "http/server.hpp"

#include <array>
#include <atomic>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <iostream>
#include <thread>
#include <vector>

#include "events/clock.hpp"
#include "http/problem.hpp"

namespace vouch::http {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;

// Shared by the listener and every session.
struct ServerState {
  ServerOptions options;
  Server::Handler handler;
  std::atomic<std::size_t> connections{0};
  std::atomic<std::size_t> in_flight{0};
  std::atomic<bool> draining{false};
};

// One connection: read a request, hand it over, write the response, repeat.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket&& socket, std::shared_ptr<ServerState> state)
      : stream_(std::move(socket)), state_(std::move(state)) {
    ++state_->connections;
  }
  ~Session() { --state_->connections; }

  void start() {
    asio::dispatch(stream_.get_executor(),
                   beast::bind_front_handler(&Session::do_read, shared_from_this()));
  }

 private:
  void do_read() {
    parser_.emplace();
    parser_->header_limit(state_->options.header_limit);
    parser_->body_limit(state_->options.body_limit);
    stream_.expires_after(state_->options.read_timeout);
    bhttp::async_read(stream_, buffer_, *parser_,
                      beast::bind_front_handler(&Session::on_read, shared_from_this()));
  }

  void on_read(beast::error_code ec, std::size_t) {
    if (ec == bhttp::error::end_of_stream || ec == beast::error::timeout ||
        ec == asio::error::operation_aborted || ec == asio::error::connection_reset) {
      return close();
    }
    if (ec == bhttp::error::body_limit) {
      return reply_problem(
          {413,
           "payload_too_large",
           "the body exceeds " + std::to_string(state_->options.body_limit) + " bytes",
           {}});
    }
    if (ec == bhttp::error::header_limit) {
      return reply_problem({431, "headers_too_large", "the request headers are too large", {}});
    }
    if (ec) {
      return reply_problem({400, "invalid_request", "malformed HTTP request: " + ec.message(), {}});
    }

    auto message = parser_->release();
    keep_alive_ = message.keep_alive();
    version_ = message.version();
    Request request;
    request.method = std::string(message.method_string());
    request.target = std::string(message.target());
    request.authorization = std::string(message[bhttp::field::authorization]);
    request.content_type = std::string(message[bhttp::field::content_type]);
    request.prefer = std::string(message["Prefer"]);
    request.body = std::move(message.body());

    ++state_->in_flight;
    stream_.expires_never();  // the handler's own timeouts apply while it works
    // The handler may answer from any thread; the write goes back to our strand.
    state_->handler(std::move(request), [self = shared_from_this()](Response response) {
      asio::post(self->stream_.get_executor(), [self, response = std::move(response)]() mutable {
        --self->state_->in_flight;
        self->do_write(std::move(response));
      });
    });
  }

  void reply_problem(const Problem& problem) {
    keep_alive_ = false;  // the stream is in an unknown state after a parse error
    do_write(to_response(problem, ""));
  }

  void do_write(Response response) {
    auto message = std::make_shared<bhttp::response<bhttp::string_body>>(
        static_cast<bhttp::status>(response.status), version_);
    message->set(bhttp::field::server, "vouchd");
    if (!response.content_type.empty()) {
      message->set(bhttp::field::content_type, response.content_type);
    }
    for (auto& [name, value] : response.headers) message->insert(name, value);
    message->body() = std::move(response.body);
    message->keep_alive(keep_alive_ && !state_->draining.load());
    message->prepare_payload();
    stream_.expires_after(state_->options.read_timeout);
    bhttp::async_write(stream_, *message,
                       [self = shared_from_this(), message](beast::error_code ec, std::size_t) {
                         self->on_write(ec, message->keep_alive());
                       });
  }

  void on_write(beast::error_code ec, bool keep_alive) {
    if (ec || !keep_alive) return close();
    do_read();
  }

  // Lingering close: stop sending, then read and discard what the client
  // still sends (for a while), so that a client still writing an oversized
  // body reads our answer instead of a connection reset.
  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.expires_after(std::chrono::seconds(5));
    do_discard();
  }

  void do_discard() {
    stream_.async_read_some(asio::buffer(discard_),
                            [self = shared_from_this()](beast::error_code ec, std::size_t) {
                              if (!ec) self->do_discard();
                            });
  }

  beast::tcp_stream stream_;
  std::shared_ptr<ServerState> state_;
  beast::flat_buffer buffer_;
  std::optional<bhttp::request_parser<bhttp::string_body>> parser_;
  std::array<char, 16 * 1024> discard_{};
  bool keep_alive_ = true;
  unsigned version_ = 11;
};

}  // namespace

struct Server::Impl {
  explicit Impl(ServerOptions options, Handler handler)
      : io(static_cast<int>(options.threads)),
        acceptor(asio::make_strand(io)),
        state(std::make_shared<ServerState>()) {
    state->options = std::move(options);
    state->handler = std::move(handler);
  }

  void do_accept() {
    acceptor.async_accept(asio::make_strand(io), [this](beast::error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;  // stopped
      if (ec) return pause_accepting(ec);
      if (state->connections.load() >= state->options.max_connections) {
        beast::error_code ignored;
        socket.close(ignored);  // over the limit: refuse rather than queue without bound
      } else {
        std::make_shared<Session>(std::move(socket), state)->start();
      }
      do_accept();
    });
  }

  // A failed accept (mostly: out of file descriptors) leaves the connection
  // queued, so accepting again at once would fail again at once, a busy loop.
  // Wait a little instead; sessions ending meanwhile free descriptors.
  void pause_accepting(beast::error_code ec) {
    std::cerr << "time=" << events::format_timestamp(events::now_millis())
              << " level=warn component=http msg=\"accepting a connection failed: " << ec.message()
              << "; accepting again in " << kAcceptPause.count() << " ms\"\n";
    accept_pause.expires_after(kAcceptPause);
    accept_pause.async_wait([this](beast::error_code waited) {
      if (!waited && acceptor.is_open()) do_accept();
    });
  }

  // Stops accepting, on the acceptor's strand.
  void stop_accepting() {
    asio::dispatch(acceptor.get_executor(), [this] {
      beast::error_code ignored;
      acceptor.close(ignored);
      accept_pause.cancel();
    });
  }

  // Stops accepting, then polls until in-flight requests are answered or the
  // drain timeout passes, then stops the io_context.
  void drain(std::chrono::steady_clock::time_point deadline) {
    if (state->in_flight.load() == 0 || std::chrono::steady_clock::now() >= deadline) {
      io.stop();
      return;
    }
    drain_timer.expires_after(std::chrono::milliseconds(20));
    drain_timer.async_wait([this, deadline](beast::error_code) { drain(deadline); });
  }

  static constexpr std::chrono::milliseconds kAcceptPause{100};

  asio::io_context io;
  tcp::acceptor acceptor;
  asio::steady_timer accept_pause{acceptor.get_executor()};  // on the acceptor's strand
  asio::steady_timer drain_timer{io};
  // Registered at construction, before the port is announced, so a SIGTERM
  // that comes early is queued for run() rather than killing the process.
  asio::signal_set signals{io, SIGINT, SIGTERM};
  std::shared_ptr<ServerState> state;
};

Server::Server(ServerOptions options, Handler handler)
    : impl_(std::make_unique<Impl>(std::move(options), std::move(handler))) {}

Server::~Server() = default;

events::Status Server::listen() {
  beast::error_code ec;
  const auto address = asio::ip::make_address(impl_->state->options.host, ec);
  if (ec) return events::Error::invalid("not an IP address: " + impl_->state->options.host);
  const tcp::endpoint endpoint(address, impl_->state->options.port);
  auto& acceptor = impl_->acceptor;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    return events::Error::unavailable("cannot listen on " + impl_->state->options.host + ":" +
                                      std::to_string(impl_->state->options.port) + ": " +
                                      ec.message());
  }
  return events::ok_status();
}

std::uint16_t Server::port() const { return impl_->acceptor.local_endpoint().port(); }

void Server::run() {
  impl_->signals.async_wait([this](beast::error_code ec, int) {
    if (ec) return;
    impl_->state->draining = true;
    impl_->stop_accepting();
    if (impl_->state->options.on_drain) impl_->state->options.on_drain();
    impl_->drain(std::chrono::steady_clock::now() + impl_->state->options.drain_timeout);
  });
  impl_->do_accept();
  std::vector<std::thread> threads;
  for (std::size_t i = 1; i < impl_->state->options.threads; ++i) {
    threads.emplace_back([this] { impl_->io.run(); });
  }
  impl_->io.run();
  for (auto& thread : threads) thread.join();
}

}  // namespace vouch::http
