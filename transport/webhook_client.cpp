#include "transport/webhook_client.hpp"

#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <map>
#include <optional>
#include <thread>
#include <unordered_map>

#include "transport/webhook_target.hpp"

namespace vouch::transport {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

constexpr std::uint64_t kResponseBodyLimit = 1024 * 1024;  // the body is read and dropped
constexpr const char* kUserAgent = "Vouch-Webhooks/1.0";
constexpr std::size_t kMaxCachedTargets = 4096;  // parsed URLs kept; cleared when full

std::optional<IpAddress> to_ip(const net::ip::address& address) {
  IpAddress out;
  if (address.is_v4()) {
    const auto bytes = address.to_v4().to_bytes();
    std::copy(bytes.begin(), bytes.end(), out.bytes.begin());
    out.v4 = true;
  } else {
    const auto bytes = address.to_v6().to_bytes();
    std::copy(bytes.begin(), bytes.end(), out.bytes.begin());
    out.v4 = false;
  }
  return out;
}

// One kept-alive connection: plain TCP or TLS over TCP.
struct Connection {
  std::string pool_key;
  std::unique_ptr<beast::tcp_stream> plain;
  std::unique_ptr<beast::ssl_stream<beast::tcp_stream>> secure;
  beast::flat_buffer buffer;
  Clock::time_point idle_since;

  beast::tcp_stream& tcp() { return secure ? beast::get_lowest_layer(*secure) : *plain; }
};

}  // namespace

struct WebhookClient::Impl {
  explicit Impl(Options options_in)
      : options(std::move(options_in)), work(net::make_work_guard(io)) {}

  std::unique_ptr<Connection> take_idle(const std::string& key) {
    auto it = idle.find(key);
    if (it == idle.end()) return nullptr;
    auto& connections = it->second;
    const auto now = Clock::now();
    while (!connections.empty()) {
      auto connection = std::move(connections.back());
      connections.pop_back();
      if (now - connection->idle_since < options.max_idle && connection->tcp().socket().is_open()) {
        return connection;
      }
    }
    return nullptr;
  }

  // Closes idle connections older than max_idle, every half of it: a host
  // never posted to again keeps none open.
  void sweep_idle_later() {
    sweeper.expires_after(std::max<Clock::duration>(options.max_idle / 2, std::chrono::seconds(1)));
    sweeper.async_wait([this](beast::error_code ec) {
      if (ec) return;  // shut down
      const auto now = Clock::now();
      for (auto it = idle.begin(); it != idle.end();) {
        auto& connections = it->second;
        std::erase_if(connections, [&](const std::unique_ptr<Connection>& connection) {
          return now - connection->idle_since >= options.max_idle;
        });
        it = connections.empty() ? idle.erase(it) : std::next(it);
      }
      sweep_idle_later();
    });
  }

  void give_back(std::unique_ptr<Connection> connection) {
    auto& connections = idle[connection->pool_key];
    if (connections.size() >= options.max_idle_per_host) return;
    connection->idle_since = Clock::now();
    connection->tcp().expires_never();
    connections.push_back(std::move(connection));
  }

  // A webhook's URL is parsed once, not for every attempt. I/O thread only.
  base::Result<WebhookTarget> target_of(const std::string& url) {
    if (auto it = targets.find(url); it != targets.end()) return it->second;
    auto target = parse_webhook_target(url);
    if (!target) return target;
    if (targets.size() >= kMaxCachedTargets) targets.clear();
    targets.emplace(url, *target);
    return target;
  }

  Options options;
  std::unordered_map<std::string, WebhookTarget> targets;
  net::io_context io{1};
  net::executor_work_guard<net::io_context::executor_type> work;
  ssl::context tls{ssl::context::tls_client};
  std::map<std::string, std::vector<std::unique_ptr<Connection>>> idle;  // I/O thread only
  net::steady_timer sweeper{io};
  std::thread thread;
};

namespace {

// One POST: a pooled connection or resolve → check → connect → check →
// (TLS handshake) → write → read. Handlers run on the client's one thread.
class Exchange : public std::enable_shared_from_this<Exchange> {
 public:
  Exchange(WebhookClient::Impl& client, WebhookTarget target, OutboundRequest request,
           WebhookClient::Done done)
      : client_(client),
        target_(std::move(target)),
        timeout_(request.timeout),
        done_(std::move(done)) {
    // Built once: a reconnect sends the same message again.
    message_.method(http::verb::post);
    message_.target(target_.resource);
    message_.version(11);
    message_.set(http::field::host, target_.host_header);
    message_.set(http::field::user_agent, kUserAgent);
    for (const auto& [name, value] : request.headers) message_.set(name, value);
    message_.body() = std::move(request.body);
    message_.keep_alive(true);
    message_.prepare_payload();
  }

  void start() {
    started_ = Clock::now();
    deadline_ = started_ + timeout_;
    if (auto connection = client_.take_idle(target_.pool_key)) {
      connection_ = std::move(connection);
      reused_ = true;
      do_write();
      return;
    }
    do_resolve();
  }

 private:
  void do_resolve() {
    // Only an exchange without a pooled connection resolves.
    resolver_.emplace(client_.io);
    resolver_->async_resolve(
        target_.host, target_.port,
        [self = shared_from_this()](beast::error_code ec, tcp::resolver::results_type results) {
          self->on_resolve(ec, std::move(results));
        });
  }

  void on_resolve(beast::error_code ec, tcp::resolver::results_type results) {
    if (ec) return fail("DNS lookup of " + target_.host + " failed: " + ec.message());
    std::string refusal;
    for (const auto& entry : results) {
      const auto address = to_ip(entry.endpoint().address());
      if (auto why = client_.options.policy.refusal(*address)) {
        if (refusal.empty()) refusal = *why;
        continue;
      }
      endpoints_.push_back(entry.endpoint());
    }
    if (endpoints_.empty()) return refuse("refused: " + refusal);
    do_connect();
  }

  void do_connect() {
    connection_ = std::make_unique<Connection>();
    connection_->pool_key = target_.pool_key;
    if (target_.tls) {
      connection_->secure =
          std::make_unique<beast::ssl_stream<beast::tcp_stream>>(client_.io, client_.tls);
    } else {
      connection_->plain = std::make_unique<beast::tcp_stream>(client_.io);
    }
    connection_->tcp().expires_at(deadline_);
    connection_->tcp().async_connect(
        endpoints_, [self = shared_from_this()](beast::error_code ec, const tcp::endpoint&) {
          self->on_connect(ec);
        });
  }

  void on_connect(beast::error_code ec) {
    if (ec) return fail(describe("connect", ec));
    // The address actually connected to, checked again.
    beast::error_code peer_ec;
    const auto peer = connection_->tcp().socket().remote_endpoint(peer_ec);
    if (peer_ec) return fail("connect: " + peer_ec.message());
    if (auto why = client_.options.policy.refusal(*to_ip(peer.address()))) {
      return refuse("refused: " + *why);
    }
    if (!target_.tls) return do_write();
    SSL* native = connection_->secure->native_handle();
    X509_VERIFY_PARAM* param = SSL_get0_param(native);
    X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    const bool named = target_.host_is_ip
                           ? X509_VERIFY_PARAM_set1_ip_asc(param, target_.host.c_str()) == 1
                           : X509_VERIFY_PARAM_set1_host(param, target_.host.c_str(), 0) == 1 &&
                                 SSL_set_tlsext_host_name(native, target_.host.c_str()) == 1;
    if (!named) return fail("TLS: cannot set the expected host name " + target_.host);
    connection_->secure->set_verify_mode(ssl::verify_peer);
    connection_->tcp().expires_at(deadline_);
    connection_->secure->async_handshake(
        ssl::stream_base::client,
        [self = shared_from_this()](beast::error_code ec) { self->on_handshake(ec); });
  }

  void on_handshake(beast::error_code ec) {
    if (ec) return fail(describe("TLS handshake", ec));
    do_write();
  }

  void do_write() {
    connection_->tcp().expires_at(deadline_);
    with_stream([&](auto& stream) {
      http::async_write(
          stream, message_,
          [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_write(ec); });
    });
  }

  void on_write(beast::error_code ec) {
    if (ec) return reused_ ? reconnect() : fail(describe("sending the request", ec));
    parser_.emplace();
    parser_->body_limit(kResponseBodyLimit);
    connection_->tcp().expires_at(deadline_);
    with_stream([&](auto& stream) {
      http::async_read(stream, connection_->buffer, *parser_,
                       [self = shared_from_this()](beast::error_code ec, std::size_t bytes) {
                         self->on_read(ec, bytes);
                       });
    });
  }

  void on_read(beast::error_code ec, std::size_t bytes) {
    // A kept-alive connection the receiver closed meanwhile: once more, afresh.
    if (ec && reused_ && bytes == 0 && ec != beast::error::timeout) return reconnect();
    if (ec && !(ec == http::error::body_limit && parser_->is_header_done())) {
      return fail(describe("reading the response", ec));
    }
    const auto& response = parser_->get();
    OutboundResult result;
    result.status = response.result_int();
    if (auto it = response.find(http::field::retry_after); it != response.end()) {
      result.retry_after = std::string(it->value());
    }
    if (!ec && parser_->is_done() && response.keep_alive()) {
      client_.give_back(std::move(connection_));
    }
    finish(std::move(result));
  }

  void reconnect() {
    reused_ = false;
    connection_.reset();
    do_resolve();
  }

  template <class F>
  void with_stream(F&& f) {
    if (connection_->secure) {
      f(*connection_->secure);
    } else {
      f(*connection_->plain);
    }
  }

  std::string describe(std::string_view step, beast::error_code ec) const {
    if (ec == beast::error::timeout) {
      return "timed out after " + std::to_string(timeout_.count()) + " ms (" + std::string(step) +
             ")";
    }
    return std::string(step) + " failed: " + ec.message();
  }

  void fail(std::string error) {
    OutboundResult result;
    result.error = std::move(error);
    finish(std::move(result));
  }

  void refuse(std::string error) {
    OutboundResult result;
    result.error = std::move(error);
    result.refused = true;
    finish(std::move(result));
  }

  void finish(OutboundResult result) {
    result.duration =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started_);
    auto done = std::move(done_);
    done(std::move(result));
  }

  WebhookClient::Impl& client_;
  WebhookTarget target_;
  std::chrono::milliseconds timeout_;  // for the whole exchange
  WebhookClient::Done done_;
  std::optional<tcp::resolver> resolver_;
  std::vector<tcp::endpoint> endpoints_;
  std::unique_ptr<Connection> connection_;
  bool reused_ = false;
  http::request<http::string_body> message_;
  std::optional<http::response_parser<http::string_body>> parser_;
  Clock::time_point started_;
  Clock::time_point deadline_;
};

}  // namespace

base::Result<std::unique_ptr<WebhookClient>> WebhookClient::create(Options options) {
  auto impl = std::make_unique<Impl>(std::move(options));
  beast::error_code ec;
  impl->tls.set_default_verify_paths(ec);
  if (ec) return base::Error::invalid("cannot load the system's CA store: " + ec.message());
  if (!impl->options.ca_file.empty()) {
    impl->tls.load_verify_file(impl->options.ca_file, ec);
    if (ec) {
      return base::Error::invalid("cannot load --webhook-ca " + impl->options.ca_file + ": " +
                                  ec.message());
    }
  }
  impl->tls.set_verify_mode(ssl::verify_peer);
  auto* raw = impl.get();
  net::post(raw->io, [raw] { raw->sweep_idle_later(); });
  impl->thread = std::thread([raw] { raw->io.run(); });
  return std::unique_ptr<WebhookClient>(new WebhookClient(std::move(impl)));
}

WebhookClient::WebhookClient(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

WebhookClient::~WebhookClient() { shutdown(); }

void WebhookClient::shutdown() {
  impl_->work.reset();
  impl_->io.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

void WebhookClient::post(OutboundRequest request, Done done) {
  net::post(impl_->io,
            [impl = impl_.get(), request = std::move(request), done = std::move(done)]() mutable {
              auto target = impl->target_of(request.url);
              if (!target) {
                OutboundResult result;
                result.error = target.error().message;
                return done(std::move(result));
              }
              std::make_shared<Exchange>(*impl, std::move(target).value(), std::move(request),
                                         std::move(done))
                  ->start();
            });
}

}  // namespace vouch::transport
