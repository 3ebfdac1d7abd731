// Slow and idle clients against the real vouchd: a client that trickles its
// header is closed within seconds, and neither thousands of idle connections
// nor one address holding many connections keep other clients out.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "../unit/temp_folder.hpp"
#include "vouchd_process.hpp"

namespace vouch::testing {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
using std::chrono::seconds;

// The test itself holds thousands of sockets.
void raise_own_open_file_limit() {
  rlimit limit{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &limit), 0);
  limit.rlim_cur = limit.rlim_max;
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &limit), 0);
}

// A TCP connection to vouchd from `source` (any 127/8 address is loopback).
int connect_from(const char* source, std::uint16_t port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in local{};
  local.sin_family = AF_INET;
  inet_pton(AF_INET, source, &local.sin_addr);
  sockaddr_in remote{};
  remote.sin_family = AF_INET;
  remote.sin_port = htons(port);
  inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr);
  if (bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0 ||
      connect(fd, reinterpret_cast<sockaddr*>(&remote), sizeof remote) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// Whether the server closed `fd` (a read sees end of stream or a reset).
bool closed_by_server(int fd) {
  pollfd entry{fd, POLLIN, 0};
  if (poll(&entry, 1, 0) <= 0) return false;
  char byte;
  return recv(fd, &byte, 1, MSG_DONTWAIT) <= 0;
}

// GET /healthz on a new connection from `source`; the status line's code, or
// 0 when no answer came within `wait`.
// GET /healthz from `source`: the status, or 0 after saying on stderr why
// there was none (a failure can then tell the client's side from vouchd's).
unsigned health_from(const char* source, std::uint16_t port, milliseconds wait) {
  const int fd = connect_from(source, port);
  if (fd < 0) {
    std::cerr << "health_from: no connection: " << std::strerror(errno) << "\n";
    return 0;
  }
  const std::string request = "GET /healthz HTTP/1.1\r\nHost: vouch\r\nConnection: close\r\n\r\n";
  if (write(fd, request.data(), request.size()) != static_cast<ssize_t>(request.size())) {
    std::cerr << "health_from: the request was not sent: " << std::strerror(errno) << "\n";
    close(fd);
    return 0;
  }
  std::string answer;
  const auto deadline = Clock::now() + wait;
  char chunk[4096];
  while (Clock::now() < deadline && answer.find("\r\n") == std::string::npos) {
    pollfd entry{fd, POLLIN, 50};
    if (poll(&entry, 1, 50) <= 0) continue;
    const auto got = read(fd, chunk, sizeof chunk);
    if (got <= 0) break;
    answer.append(chunk, static_cast<std::size_t>(got));
  }
  close(fd);
  if (answer.rfind("HTTP/1.1 ", 0) != 0) {
    std::cerr << "health_from: no status line, got " << answer.size() << " bytes\n";
    return 0;
  }
  return static_cast<unsigned>(std::stoul(answer.substr(9, 3)));
}

TEST(SlowClients, TricklingAHeaderIsClosedWithinSeconds) {
  raise_own_open_file_limit();
  TempFolder folder;
  VouchdProcess server(folder.path() / "data", {"--warm-runners", "0"});

  // 200 clients start a request and then send one byte per second, forever.
  std::vector<int> slow;
  for (int i = 0; i < 200; ++i) {
    const int fd = connect_from("127.0.0.1", server.port());
    ASSERT_GE(fd, 0);
    const std::string start = "GET /healthz HTTP/1.1\r\nX-Slow: ";
    ASSERT_EQ(write(fd, start.data(), start.size()), static_cast<ssize_t>(start.size()));
    slow.push_back(fd);
  }
  const auto start = Clock::now();
  std::size_t open = slow.size();
  while (open > 0 && Clock::now() - start < seconds(20)) {
    open = 0;
    for (const int fd : slow) {
      if (fd < 0 || closed_by_server(fd)) continue;
      ++open;
      (void)send(fd, "a", 1, MSG_NOSIGNAL);
    }
    // Everyone else is still served meanwhile.
    EXPECT_EQ(health_from("127.0.0.1", server.port(), seconds(5)), 200u);
    std::this_thread::sleep_for(milliseconds(1000));
  }
  const auto elapsed = std::chrono::duration_cast<seconds>(Clock::now() - start);
  EXPECT_EQ(open, 0u) << "slow clients still connected after " << elapsed.count() << " s";
  // The header deadline is 10 s; a little more for a loaded machine.
  EXPECT_LE(elapsed.count(), 14);
  for (const int fd : slow) close(fd);
}

TEST(SlowClients, ThousandsOfIdleConnectionsDoNotKeepOthersOut) {
  raise_own_open_file_limit();
  TempFolder folder;
  // 512 descriptors: at most 384 connections, far fewer than the idle ones.
  VouchdProcess server(folder.path() / "data", {"--warm-runners", "0"},
                       {{"prlimit", "--nofile=512:512"}, {}});
  std::vector<int> idle;
  for (int i = 0; i < 3000; ++i) {
    const int fd = connect_from("127.0.0.1", server.port());
    ASSERT_GE(fd, 0) << "connection " << i;
    idle.push_back(fd);
  }
  // New clients are served: each new connection makes room by closing the
  // longest-idle one.
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(health_from("127.0.0.1", server.port(), seconds(10)), 200u) << "request " << i;
  }
  // Every idle connection was accepted before those requests; all but the
  // last 384 were closed to make room (closing goes through each one's thread).
  std::size_t closed = 0;
  for (const auto start = Clock::now(); Clock::now() - start < seconds(10);) {
    closed = 0;
    for (const int fd : idle) closed += closed_by_server(fd) ? 1 : 0;
    if (closed >= 3000u - 384u) break;
    std::this_thread::sleep_for(milliseconds(100));
  }
  EXPECT_GE(closed, 3000u - 384u);
  for (const int fd : idle) close(fd);
}

TEST(SlowClients, OneAddressCannotTakeEveryConnection) {
  raise_own_open_file_limit();
  TempFolder folder;
  VouchdProcess server(folder.path() / "data", {"--warm-runners", "0", "--max-connections", "64",
                                                "--max-connections-per-address", "32"});
  // 100 connections from one address, each busy sending a header: 32 are
  // served, the others refused.
  std::vector<int> busy;
  for (int i = 0; i < 100; ++i) {
    const int fd = connect_from("127.0.0.1", server.port());
    ASSERT_GE(fd, 0);
    (void)send(fd, "GET / HTTP/1.1\r\n", 16, MSG_NOSIGNAL);
    busy.push_back(fd);
  }
  // Another address is served at once, though the first one is over its share.
  // It was accepted after the 100, so each of those is admitted or refused by now.
  EXPECT_EQ(health_from("127.0.0.2", server.port(), seconds(5)), 200u);
  std::size_t refused = 0;
  for (const int fd : busy) refused += closed_by_server(fd) ? 1 : 0;
  EXPECT_EQ(refused, 100u - 32u);
  for (const int fd : busy) close(fd);
}

}  // namespace
}  // namespace vouch::testing
