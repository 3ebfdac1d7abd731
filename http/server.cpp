#include "http/server.hpp"

#include <fcntl.h>
#include <sys/resource.h>

#include <algorithm>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <thread>
#include <vector>

#include "http/session.hpp"
#include "log/log.hpp"

namespace vouch::http {
namespace {

namespace asio = boost::asio;
using error_code = boost::system::error_code;
using tcp = asio::ip::tcp;

// Marks a descriptor close-on-exec. Asio opens sockets without the flag; the
// child launcher closes everything anyway, this keeps them out of any other
// exec too.
void close_on_exec(int fd) {
  const int flags = ::fcntl(fd, F_GETFD);
  if (flags >= 0) ::fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
}

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

// One io_context per thread, each run by that thread alone: a connection
// lives on one of them from accept to close, so its handlers never hop
// between threads (no strand, no cross-thread wake-up per request). The
// first context also holds the acceptor, the signals and the drain timer.
struct Server::Impl {
  explicit Impl(ServerOptions options, Handler handler)
      : contexts(make_contexts(std::max<std::size_t>(1, options.threads))),
        io(*contexts.front()),
        acceptor(io),
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

  static std::vector<std::unique_ptr<asio::io_context>> make_contexts(std::size_t count) {
    std::vector<std::unique_ptr<asio::io_context>> made;
    for (std::size_t i = 0; i < count; ++i) made.push_back(std::make_unique<asio::io_context>(1));
    return made;
  }

  // The context the next connection lives on, round robin.
  asio::io_context& next_context() { return *contexts[next_connection++ % contexts.size()]; }

  void do_accept() {
    acceptor.async_accept(next_context(), [this](error_code ec, Socket socket) {
      if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;  // stopped
      if (ec) return pause_accepting(ec);
      admit(std::move(socket));
      do_accept();
    });
  }

  // Serves a new connection if the table admits it, closing the idle
  // connection it names; refuses it otherwise.
  void admit(Socket socket) {
    close_on_exec(socket.native_handle());
    error_code ec;
    const auto peer = socket.remote_endpoint(ec);
    if (ec) return;  // gone already
    auto admission = state->connections.admit(peer.address());
    if (!admission.admitted) {
      socket.close(ec);  // every connection busy: refuse rather than queue without bound
      return;
    }
    if (auto idle = admission.evict.lock()) evict(*idle);
    start_session(std::move(socket), peer.address(), state);
  }

  // A failed accept (mostly: out of file descriptors) leaves the connection
  // queued, so accepting again at once would fail again at once, a busy loop.
  // Wait a little instead; sessions ending meanwhile free descriptors.
  void pause_accepting(error_code ec) {
    log::warn("http", "accepting a connection failed: " + ec.message() + "; accepting again in " +
                          std::to_string(kAcceptPause.count()) + " ms");
    accept_pause.expires_after(kAcceptPause);
    accept_pause.async_wait([this](error_code waited) {
      if (!waited && acceptor.is_open()) do_accept();
    });
  }

  // Stops accepting (on the first context's thread, as the acceptor's handlers).
  void stop_accepting() {
    asio::dispatch(io, [this] {
      error_code ignored;
      acceptor.close(ignored);
      accept_pause.cancel();
    });
  }

  // Stops accepting, then polls until in-flight requests are answered or the
  // drain timeout passes, then stops every io_context.
  void drain(std::chrono::steady_clock::time_point deadline) {
    if (state->in_flight.load() == 0 || std::chrono::steady_clock::now() >= deadline) {
      for (auto& guard : keep_running) guard.reset();
      for (auto& context : contexts) context->stop();
      return;
    }
    drain_timer.expires_after(std::chrono::milliseconds(20));
    drain_timer.async_wait([this, deadline](error_code) { drain(deadline); });
  }

  static constexpr std::chrono::milliseconds kAcceptPause{100};

  std::vector<std::unique_ptr<asio::io_context>> contexts;
  std::size_t next_connection = 0;  // on the first context's thread
  asio::io_context& io;             // the first context
  tcp::acceptor acceptor;
  asio::steady_timer accept_pause{io};
  asio::steady_timer drain_timer{io};
  // Keeps each context running while it has no connection.
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> keep_running;
  // Registered at construction, before the port is announced, so a SIGTERM
  // that comes early is queued for run() rather than killing the process.
  asio::signal_set signals{io, SIGINT, SIGTERM};
  std::shared_ptr<ServerState> state;
};

Server::Server(ServerOptions options, Handler handler)
    : impl_(std::make_unique<Impl>(std::move(options), std::move(handler))) {}

Server::~Server() = default;

base::Status Server::listen() {
  error_code ec;
  const auto address = asio::ip::make_address(impl_->state->options.host, ec);
  if (ec) return base::Error::invalid("not an IP address: " + impl_->state->options.host);
  const tcp::endpoint endpoint(address, impl_->state->options.port);
  auto& acceptor = impl_->acceptor;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) close_on_exec(acceptor.native_handle());
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    return base::Error::unavailable("cannot listen on " + impl_->state->options.host + ":" +
                                    std::to_string(impl_->state->options.port) + ": " +
                                    ec.message());
  }
  return base::ok_status();
}

std::uint16_t Server::port() const { return impl_->acceptor.local_endpoint().port(); }

void Server::run() {
  impl_->signals.async_wait([this](error_code ec, int) {
    if (ec) return;
    impl_->state->draining = true;
    impl_->stop_accepting();
    if (impl_->state->options.on_drain) impl_->state->options.on_drain();
    impl_->drain(std::chrono::steady_clock::now() + impl_->state->options.drain_timeout);
  });
  impl_->do_accept();
  auto& contexts = impl_->contexts;
  for (auto& context : contexts) impl_->keep_running.push_back(asio::make_work_guard(*context));
  std::vector<std::thread> threads;
  for (std::size_t i = 1; i < contexts.size(); ++i) {
    threads.emplace_back([&context = *contexts[i]] { context.run(); });
  }
  impl_->io.run();
  for (auto& thread : threads) thread.join();
}

}  // namespace vouch::http
