// The launcher every child of vouchd goes through (runners, generators, npm):
// nothing of the server's crosses into the child.
#include "process/child_process.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <memory>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

namespace vouch::process {
namespace {

// Runs `sh -c script` and returns its first line of stdout.
std::string first_line_of(ProcessHost& host, const std::string& script,
                          std::vector<std::string> env = {"PATH=/usr/bin:/bin"}) {
  auto child = ChildProcess::start(host, {"/bin/sh", {"-c", script}, std::move(env), "/"});
  EXPECT_TRUE(child.ok());
  if (!child.ok()) return {};
  std::promise<std::string> line;
  auto process = *child;
  process->exchange(
      {}, true, std::chrono::seconds(20), [&line, process](std::optional<std::string> got) {
        process->wait(std::chrono::seconds(5),
                      [&line, got](ProcessExit) { line.set_value(got.value_or("")); });
      });
  return line.get_future().get();
}

// Descriptors the way a server holds them: a listening socket and a file,
// neither marked close-on-exec (Asio's and many libraries' sockets are not).
struct ServerDescriptors {
  ServerDescriptors() {
    listener = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address);
    ::listen(listener, 8);
    file = ::open("/proc/self/status", O_RDONLY);
    int pipe_ends[2];
    EXPECT_EQ(::pipe(pipe_ends), 0);
    pipe_read = pipe_ends[0];
    pipe_write = pipe_ends[1];
  }
  ~ServerDescriptors() {
    for (const int fd : {listener, file, pipe_read, pipe_write}) ::close(fd);
  }
  int listener, file, pipe_read, pipe_write;
};

TEST(ChildProcessTest, ChildHoldsOnlyItsOwnStdio) {
  ServerDescriptors server;
  ProcessHost host;
  // The child says it runs, then waits on stdin: its descriptors are then
  // read from here, so that the listing opens none of its own in the child.
  auto child = ChildProcess::start(host, {"/bin/sh", {"-c", "echo ready; read line"}, {}, "/"});
  ASSERT_TRUE(child.ok());
  auto process = *child;
  std::promise<std::optional<std::string>> ready;
  process->exchange({}, false, std::chrono::seconds(20),
                    [&ready](std::optional<std::string> line) { ready.set_value(line); });
  ASSERT_EQ(ready.get_future().get(), std::optional<std::string>("ready"));
  std::set<int> descriptors;
  std::string seen;
  for (const auto& entry :
       std::filesystem::directory_iterator("/proc/" + std::to_string(process->pid()) + "/fd")) {
    descriptors.insert(std::stoi(entry.path().filename().string()));
    seen += entry.path().filename().string() + "=" +
            std::filesystem::read_symlink(entry.path()).string() + " ";
  }
  EXPECT_EQ(descriptors, (std::set<int>{0, 1, 2})) << "the child holds: " << seen;
  process->kill();
}

TEST(ChildProcessTest, EnvironmentIsOnlyWhatTheSpecSays) {
  ::setenv("VOUCH_TEST_SECRET", "s3cret", 1);
  ProcessHost host;
  EXPECT_EQ(first_line_of(host, "env | sort | tr '\\n' ' '; echo", {"PATH=/usr/bin:/bin", "A=b"}),
            "A=b PATH=/usr/bin:/bin PWD=/ ");
  ::unsetenv("VOUCH_TEST_SECRET");
}

TEST(ChildProcessTest, SignalsAreThoseOfAFreshProcess) {
  ProcessHost host;  // it ignores SIGPIPE, as vouchd does
  // The launching thread blocks a signal: the child must not inherit that.
  sigset_t blocked, previous;
  ::sigemptyset(&blocked);
  ::sigaddset(&blocked, SIGTERM);
  ASSERT_EQ(::pthread_sigmask(SIG_BLOCK, &blocked, &previous), 0);
  const auto status =
      first_line_of(host, "grep -E '^Sig(Blk|Ign)' /proc/self/status | tr -s '\\t\\n' '  '; echo");
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  EXPECT_EQ(status, "SigBlk: 0000000000000000 SigIgn: 0000000000000000 ");
}

TEST(ChildProcessTest, WhatCannotStartIsAnErrorNamingTheProgramAndTheReason) {
  ProcessHost host;
  auto missing = ChildProcess::start(host, {"/nonexistent/program", {}, {}, "/"});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("/nonexistent/program"), std::string::npos);
  EXPECT_NE(missing.error().message.find("No such file"), std::string::npos)
      << missing.error().message;

  const auto plain_file = std::filesystem::temp_directory_path() /
                          ("vouch-not-a-program-" + std::to_string(::getpid()));
  std::fclose(std::fopen(plain_file.c_str(), "w"));
  std::filesystem::permissions(
      plain_file, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  auto not_executable = ChildProcess::start(host, {plain_file, {}, {}, "/"});
  std::filesystem::remove(plain_file);
  ASSERT_FALSE(not_executable.ok());
  EXPECT_NE(not_executable.error().message.find("Permission denied"), std::string::npos)
      << not_executable.error().message;

  auto no_folder = ChildProcess::start(host, {"/bin/true", {}, {}, "/nonexistent/folder"});
  ASSERT_FALSE(no_folder.ok());
  EXPECT_NE(no_folder.error().message.find("No such file"), std::string::npos)
      << no_folder.error().message;
}

// Between fork and exec a child of a multi-threaded process may not
// allocate: a lock another thread held at the fork never opens in the child.
// Boost.Process's launcher did, and under AddressSanitizer (the sanitizer
// build runs these tests) a launch now and then hung forever. Here threads
// allocate without pause while children are launched from two threads.
TEST(ChildProcessTest, LaunchingWhileOtherThreadsAllocateNeverHangs) {
  ProcessHost host;
  std::atomic<bool> stop{false};
  std::vector<std::thread> allocators;
  for (int i = 0; i < 3; ++i) {
    allocators.emplace_back([&stop] {
      std::vector<std::unique_ptr<std::string>> held(64);
      for (std::size_t n = 0; !stop.load(std::memory_order_relaxed); ++n) {
        held[n % held.size()] = std::make_unique<std::string>(16 + n % 200, 'x');
      }
    });
  }
  auto launches = [&host] {
    int started = 0;
    for (int i = 0; i < 100; ++i) {
      auto child = ChildProcess::start(host, {"/bin/true", {}, {}, "/"});
      if (!child.ok()) continue;
      ++started;
      std::promise<void> ended;
      (*child)->wait(std::chrono::seconds(20), [&ended](ProcessExit) { ended.set_value(); });
      ended.get_future().get();
    }
    return started;
  };
  auto first = std::async(std::launch::async, launches);
  auto second = std::async(std::launch::async, launches);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  if (first.wait_until(deadline) != std::future_status::ready ||
      second.wait_until(deadline) != std::future_status::ready) {
    // A launching thread is stuck for good; end here rather than hang the suite.
    std::fprintf(stderr, "a launch hung: its forked child never reached exec\n");
    std::abort();
  }
  stop = true;
  for (auto& thread : allocators) thread.join();
  EXPECT_EQ(first.get(), 100);
  EXPECT_EQ(second.get(), 100);
}

}  // namespace
}  // namespace vouch::process
