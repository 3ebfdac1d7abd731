// The launcher every child of vouchd goes through (runners, generators, npm):
// nothing of the server's crosses into the child.
#include "actors/execution/child_process.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <future>
#include <set>
#include <sstream>

namespace vouch::actors {
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

}  // namespace
}  // namespace vouch::actors
