#include "http/server.hpp"

#include <fcntl.h>
#include <sys/resource.h>

#include <algorithm>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
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
    acceptor.async_accept(asio::make_strand(io), [this](error_code ec, tcp::socket socket) {
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

  // Stops accepting, on the acceptor's strand.
  void stop_accepting() {
    asio::dispatch(acceptor.get_executor(), [this] {
      error_code ignored;
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
    drain_timer.async_wait([this, deadline](error_code) { drain(deadline); });
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
  error_code ec;
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
  impl_->signals.async_wait([this](error_code ec, int) {
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
