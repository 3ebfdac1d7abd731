#include "http/session.hpp"

#include <algorithm>
#include <array>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <optional>
#include <string>

#include "base/ids.hpp"
#include "http/problem.hpp"
#include "log/log.hpp"

namespace vouch::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;

// One connection: wait for a request, read its header then its body (each
// phase with its own deadline), hand it over, write the response, repeat.
class Session : public std::enable_shared_from_this<Session> {
 public:
  using IdleEntry = ConnectionTable<Session>::IdleEntry;

  Session(Socket&& socket, asio::ip::address address, std::shared_ptr<ServerState> state)
      : stream_(std::move(socket)), address_(std::move(address)), state_(std::move(state)) {}
  ~Session() {
    release_large_body();
    state_->connections.mark_busy(own_idle_, idle_listed_, idle_entry_);
    state_->connections.release(address_);
  }

  void start() {
    asio::dispatch(stream_.get_executor(),
                   beast::bind_front_handler(&Session::do_read, shared_from_this()));
  }

  // Closes the connection, chosen while idle, for the listener needs its
  // slot; unless a request of it reached the handler meanwhile (which may act
  // on it: its answer must not be lost). Bytes that arrived meanwhile (the
  // start of a request, not yet read) do not save it: the table counted its
  // slot as free.
  void evict() {
    asio::dispatch(stream_.get_executor(), [self = shared_from_this()] {
      if (self->handling_) return;
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
    handling_ = false;
    if (buffer_.size() > 0) return read_header();  // a pipelined request is here already
    state_->connections.mark_idle(
        own_idle_,
        [this] {
          return IdleEntry{weak_from_this(), address_, &idle_listed_};
        },
        idle_entry_);
    stream_.expires_after(state_->options.idle_timeout);
    stream_.async_read_some(
        buffer_.prepare(kFirstRead),
        beast::bind_front_handler(&Session::on_first_bytes, shared_from_this()));
  }

  void on_first_bytes(beast::error_code ec, std::size_t bytes) {
    state_->connections.mark_busy(own_idle_, idle_listed_, idle_entry_);
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
        reply_problem({503, "unavailable", "too many uploads at once; try again shortly", {}, 1});
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
    return {
        413, "payload_too_large", "the body exceeds " + std::to_string(body_limit_) + " bytes", {}};
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
    handling_ = true;
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
    // The handler may answer from any thread, once; the write goes back to
    // our connection's thread (at once when the handler answers on it).
    auto answered = std::make_shared<std::atomic<bool>>(false);
    Respond respond = [self = shared_from_this(), answered](Response response) {
      if (answered->exchange(true)) return;
      asio::dispatch(self->stream_.get_executor(),
                     [self, response = std::move(response)]() mutable {
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
    const auto request_id = base::new_id(base::kRequestIdPrefix);
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

  beast::basic_stream<tcp, asio::io_context::executor_type> stream_;
  const asio::ip::address address_;
  std::shared_ptr<ServerState> state_;
  beast::flat_buffer buffer_;
  std::optional<bhttp::request_parser<bhttp::string_body>> parser_;
  std::array<char, 16 * 1024> discard_{};
  bool keep_alive_ = true;
  unsigned version_ = 11;
  std::uint64_t body_limit_ = 0;   // the current request's
  bool holds_large_body_ = false;  // the current request holds an upload slot
  bool handling_ = false;          // on our thread: the handler has the request, or we answer it
  // Guarded by the connection table: whether and where we are in its idle list.
  bool idle_listed_ = false;
  ConnectionTable<Session>::IdleList::iterator idle_entry_;
  ConnectionTable<Session>::IdleList own_idle_;  // our entry while not in the idle list
};

void start_session(Socket socket, asio::ip::address address, std::shared_ptr<ServerState> state) {
  std::make_shared<Session>(std::move(socket), std::move(address), std::move(state))->start();
}

void evict(Session& session) { session.evict(); }

}  // namespace vouch::http
