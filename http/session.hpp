#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <cstddef>
#include <memory>

#include "http/connection_table.hpp"
#include "http/server.hpp"

// The server's connections, internal to http/: the listener (server.cpp)
// accepts and admits, a Session (session.cpp, the one Beast translation unit
// of the server) reads requests, admits their bodies and writes responses.
namespace vouch::http {

class Session;

// Shared by the listener and every session; outlives both (held by shared_ptr).
struct ServerState {
  ServerOptions options;
  Server::Handler handler;
  ConnectionTable<Session> connections;
  std::atomic<std::size_t> in_flight{0};
  std::atomic<bool> draining{false};
  std::atomic<std::size_t> large_bodies{0};  // held now, at most options.large_bodies_at_once
};

// A connection's socket, bound to its io_context's executor by type: each
// connection lives on one io_context (server.cpp), and a concrete executor
// spares every read, write and timer the type-erased any_io_executor's
// copies (about 3% of a GET's CPU under load).
using Socket =
    boost::asio::ip::tcp::socket::rebind_executor<boost::asio::io_context::executor_type>::other;

// Serves `socket` on its io_context's thread until the connection closes.
// REQUIRES: state->connections admitted `address` (the session releases it).
void start_session(Socket socket, boost::asio::ip::address address,
                   std::shared_ptr<ServerState> state);

// Closes the session's connection if it is still idle (the listener needs its
// slot); a session whose next request began meanwhile is left alone. Any thread.
void evict(Session& session);

}  // namespace vouch::http
