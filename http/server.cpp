#include "http/server.hpp"

#include <fcntl.h>
#include <sys/resource.h>

#include <algorithm>
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
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "events/ids.hpp"
#include "http/connection_table.hpp"
#include "http/problem.hpp"
#include "log/log.hpp"

namespace vouch::http {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;

class Session;

// Marks a descriptor close-on-exec. Asio opens sockets without the flag; the
// child launcher closes everything anyway, this keeps them out of any other
// exec too.
void close_on_exec(int fd) {
  const int flags = ::fcntl(fd, F_GETFD);
  if (flags >= 0) ::fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
}

// Shared by the listener and every session.
struct ServerState {
  ServerOptions options;
  Server::Handler handler;
  ConnectionTable<Session> connections;
  std::atomic<std::size_t> in_flight{0};
  std::atomic<bool> draining{false};
  std::atomic<std::size_t> large_bodies{0};  // held now, at most options.large_bodies_at_once
};

// One connection: wait for a request, read its header then its body (each
// phase with its own deadline), hand it over, write the response, repeat.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket&& socket, asio::ip::address address, std::shared_ptr<ServerState> state)
      : stream_(std::move(socket)), address_(std::move(address)), state_(std::move(state)) {}
  ~Session() {
    release_large_body();
    state_->connections.mark_busy(idle_listed_, idle_entry_);
    state_->connections.release(address_);
  }

  void start() {
    asio::dispatch(stream_.get_executor(),
                   beast::bind_front_handler(&Session::do_read, shared_from_this()));
  }

  // Closes the connection if it is still idle: the listener needs its slot.
  void evict() {
    asio::dispatch(stream_.get_executor(), [self = shared_from_this()] {
      if (!self->idle_) return;  // a request began meanwhile: let it be
      beast::error_code ignored;
      self->stream_.socket().close(ignored);
    });
  }

 private:
  void do_read() {
    parser_.emplace();
    parser_->header_limit(state_->options.header_limit);
    // The largest any request may send, so that the header of an upload
    // passes; on_header() sets the request's own limit.
    parser_->body_limit(std::max(state_->options.body_limit, state_->options.large_body_limit));
    if (buffer_.size() > 0) return read_header();  // a pipelined request is here already
    idle_ = true;
    state_->connections.mark_idle({weak_from_this(), address_, &idle_listed_}, idle_entry_);
    stream_.expires_after(state_->options.idle_timeout);
    stream_.async_read_some(
        buffer_.prepare(kFirstRead),
        beast::bind_front_handler(&Session::on_first_bytes, shared_from_this()));
  }

  void on_first_bytes(beast::error_code ec, std::size_t bytes) {
    idle_ = false;
    state_->connections.mark_busy(idle_listed_, idle_entry_);
    if (ec) return;  // closed, idle too long or evicted: nothing to answer
    buffer_.commit(bytes);
    read_header();
  }

  void read_header() {
    stream_.expires_after(state_->options.header_timeout);
    bhttp::async_read_header(stream_, buffer_, *parser_,
                             beast::bind_front_handler(&Session::on_header, shared_from_this()));
  }

  void on_header(beast::error_code ec, std::size_t) {
    if (ec) return on_read_error(ec);
    if (!admit_body()) return;
    if (parser_->is_done()) return dispatch();
    stream_.expires_after(state_->options.body_timeout);
    bhttp::async_read(stream_, buffer_, *parser_,
                      beast::bind_front_handler(&Session::on_body, shared_from_this()));
  }

  void on_body(beast::error_code ec, std::size_t) {
    if (ec) return on_read_error(ec);
    dispatch();
  }

  // Sets the request's body limit: the upload limit for an upload that gets
  // one of the upload slots, the normal one otherwise. False when it has
  // answered instead (413 for a declared length over the limit, 503 when
  // every upload slot is taken).
  bool admit_body() {
    const auto& options = state_->options;
    const auto& header = parser_->get();
    const bool upload = options.large_body_limit > options.body_limit && options.large_body &&
                        options.large_body(header.method_string(), header.target());
    if (upload && !parser_->is_done()) {
      if (++state_->large_bodies > options.large_bodies_at_once) {
        --state_->large_bodies;
        reply_problem(
            {503, "unavailable", "too many uploads at once; try again shortly", {}, 1});
        return false;
      }
      holds_large_body_ = true;
    }
    body_limit_ = upload ? options.large_body_limit : options.body_limit;
    if (parser_->content_length().value_or(0) > body_limit_) {
      reply_problem(body_too_large());
      return false;
    }
    parser_->body_limit(body_limit_);
    return true;
  }

  void release_large_body() {
    if (!holds_large_body_) return;
    holds_large_body_ = false;
    --state_->large_bodies;
  }

  Problem body_too_large() const {
    return {413, "payload_too_large", "the body exceeds " + std::to_string(body_limit_) + " bytes",
            {}};
  }

  void on_read_error(beast::error_code ec) {
    if (ec == bhttp::error::body_limit) return reply_problem(body_too_large());
    if (ec == bhttp::error::header_limit) {
      return reply_problem({431, "headers_too_large", "the request headers are too large", {}});
    }
    const bool malformed =
        ec.category() == bhttp::make_error_code(bhttp::error::bad_target).category() &&
        ec != bhttp::error::end_of_stream && ec != bhttp::error::partial_message;
    if (malformed) {
      return reply_problem({400, "invalid_request", "malformed HTTP request: " + ec.message(), {}});
    }
    // Closed by the client, reset, or too slow (the stream's deadline closed
    // the socket already): nobody to answer.
  }

  void dispatch() {
    auto message = parser_->release();
    keep_alive_ = message.keep_alive();
    version_ = message.version();
    Request request;
    request.method = std::string(message.method_string());
    request.target = std::string(message.target());
    request.authorization = std::string(message[bhttp::field::authorization]);
    request.content_type = std::string(message[bhttp::field::content_type]);
    request.prefer = std::string(message["Prefer"]);
    request.idempotency_key = std::string(message["Idempotency-Key"]);
    request.body = std::move(message.body());

    ++state_->in_flight;
    stream_.expires_never();  // the handler's own timeouts apply while it works
    // The handler may answer from any thread, once; the write goes back to our strand.
    auto answered = std::make_shared<std::atomic<bool>>(false);
    Respond respond = [self = shared_from_this(), answered](Response response) {
      if (answered->exchange(true)) return;
      asio::post(self->stream_.get_executor(), [self, response = std::move(response)]() mutable {
        --self->state_->in_flight;
        self->do_write(std::move(response));
      });
    };
    // An exception barrier: a handler that throws answers 500 (when it has
    // not answered yet) and leaves the server serving.
    try {
      state_->handler(std::move(request), respond);
    } catch (const std::exception& error) {
      log::error("http", std::string("a request handler threw: ") + error.what());
      respond(problem_response({500, "internal_error", "the service failed", {}}));
    }
  }

  // A problem answered before the Api saw the request still gets a request id.
  static Response problem_response(const Problem& problem) {
    const auto request_id = events::new_id(events::kRequestIdPrefix);
    Response response = to_response(problem, request_id);
    response.set_header("X-Request-Id", request_id);
    return response;
  }

  void reply_problem(const Problem& problem) {
    keep_alive_ = false;  // the stream is in an unknown state after a parse error
    do_write(problem_response(problem));
  }

  void do_write(Response response) {
    release_large_body();
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
    stream_.expires_after(state_->options.write_timeout);
    bhttp::async_write(stream_, *message,
                       [self = shared_from_this(), message](beast::error_code ec, std::size_t) {
                         self->on_write(ec, message->keep_alive());
                       });
  }

  void on_write(beast::error_code ec, bool keep_alive) {
    if (ec) return;
    if (!keep_alive) return close();
    do_read();
  }

  // Lingering close: stop sending, then read and discard what the client
  // still sends (for a while), so that a client still writing an oversized
  // body reads our answer instead of a connection reset.
  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.expires_after(kLinger);
    do_discard();
  }

  void do_discard() {
    stream_.async_read_some(asio::buffer(discard_),
                            [self = shared_from_this()](beast::error_code ec, std::size_t) {
                              if (!ec) self->do_discard();
                            });
  }

  static constexpr std::size_t kFirstRead = 4096;
  static constexpr std::chrono::seconds kLinger{5};

  beast::tcp_stream stream_;
  const asio::ip::address address_;
  std::shared_ptr<ServerState> state_;
  beast::flat_buffer buffer_;
  std::optional<bhttp::request_parser<bhttp::string_body>> parser_;
  std::array<char, 16 * 1024> discard_{};
  bool keep_alive_ = true;
  unsigned version_ = 11;
  std::uint64_t body_limit_ = 0;    // the current request's
  bool holds_large_body_ = false;  // the current request holds an upload slot
  bool idle_ = false;  // on the strand: waiting for the first byte of a request
  // Guarded by the connection table: whether and where we are in its idle list.
  bool idle_listed_ = false;
  ConnectionTable<Session>::IdleList::iterator idle_entry_;
};

// The connection limit from the open-file limit, keeping a quarter of the
// descriptors (and at least 64) for everything else.
std::size_t connection_limit_from_open_files() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 4096;
  const auto open_files = static_cast<std::size_t>(limit.rlim_cur);
  const auto reserved = std::max<std::size_t>(64, open_files / 4);
  return open_files > reserved + 16 ? open_files - reserved : 16;
}

}  // namespace

struct Server::Impl {
  explicit Impl(ServerOptions options, Handler handler)
      : io(static_cast<int>(options.threads)),
        acceptor(asio::make_strand(io)),
        state(std::make_shared<ServerState>()) {
    const auto total =
        options.max_connections != 0 ? options.max_connections : connection_limit_from_open_files();
    const auto per_address = options.max_connections_per_address != 0
                                 ? options.max_connections_per_address
                                 : std::max<std::size_t>(1, total / 2);
    state->connections.set_limits(total, per_address);
    state->options = std::move(options);
    state->handler = std::move(handler);
  }

  void do_accept() {
    acceptor.async_accept(asio::make_strand(io), [this](beast::error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;  // stopped
      if (ec) return pause_accepting(ec);
      admit(std::move(socket));
      do_accept();
    });
  }

  // Serves a new connection if the table admits it, closing the idle
  // connection it names; refuses it otherwise.
  void admit(tcp::socket socket) {
    close_on_exec(socket.native_handle());
    beast::error_code ec;
    const auto peer = socket.remote_endpoint(ec);
    if (ec) return;  // gone already
    auto admission = state->connections.admit(peer.address());
    if (!admission.admitted) {
      socket.close(ec);  // every connection busy: refuse rather than queue without bound
      return;
    }
    if (auto idle = admission.evict.lock()) idle->evict();
    std::make_shared<Session>(std::move(socket), peer.address(), state)->start();
  }

  // A failed accept (mostly: out of file descriptors) leaves the connection
  // queued, so accepting again at once would fail again at once, a busy loop.
  // Wait a little instead; sessions ending meanwhile free descriptors.
  void pause_accepting(beast::error_code ec) {
    log::warn("http", "accepting a connection failed: " + ec.message() + "; accepting again in " +
                          std::to_string(kAcceptPause.count()) + " ms");
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
  if (!ec) close_on_exec(acceptor.native_handle());
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
