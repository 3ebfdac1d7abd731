// vouchd and its open-file limit: the soft limit is raised to the hard one,
// and running out of descriptors pauses accepting instead of spinning.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../unit/temp_folder.hpp"
#include "http_client.hpp"
#include "vouchd_process.hpp"
#include "wait_until.hpp"

namespace vouch::testing {
namespace {

using Clock = std::chrono::steady_clock;

// vouchd started through `prlimit --nofile=SOFT:HARD`, its stderr in a file.
class LimitedVouchd {
 public:
  // `--max-connections` above the descriptors left: accepting can run out of them.
  LimitedVouchd(const std::filesystem::path& folder, int soft, int hard)
      : stderr_path_(folder / "vouchd.err"),
        server_(folder / "data", {"--warm-runners", "0", "--max-connections", "100000"},
                {{"prlimit", "--nofile=" + std::to_string(soft) + ":" + std::to_string(hard)},
                 stderr_path_}) {}

  pid_t pid() const { return server_.pid(); }
  std::uint16_t port() const { return server_.port(); }
  std::string log() const {
    std::ifstream in(stderr_path_);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

 private:
  std::filesystem::path stderr_path_;
  VouchdProcess server_;
};

// The soft and hard "Max open files" of a process, from /proc.
std::pair<std::string, std::string> open_file_limits(pid_t pid) {
  std::ifstream limits("/proc/" + std::to_string(pid) + "/limits");
  std::string line;
  while (std::getline(limits, line)) {
    if (line.rfind("Max open files", 0) != 0) continue;
    std::istringstream fields(line.substr(std::string("Max open files").size()));
    std::string soft, hard;
    fields >> soft >> hard;
    return {soft, hard};
  }
  return {};
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t found = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++found;
  }
  return found;
}

// A plain TCP connection that sends nothing: it takes a descriptor in vouchd
// once accepted.
int open_idle_connection(std::uint16_t port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

TEST(OpenFiles, TheSoftLimitIsRaisedToTheHardOne) {
  TempFolder folder;
  LimitedVouchd server(folder.path(), 256, 4096);
  ASSERT_NE(server.port(), 0) << server.log();
  EXPECT_EQ(open_file_limits(server.pid()),
            std::make_pair(std::string("4096"), std::string("4096")));
  // The log is written by a background thread: the line may follow the port.
  EXPECT_TRUE(wait_until([&] {
    return server.log().find("open files: at most 4096 (raised from 256)") != std::string::npos;
  })) << server.log();
}

TEST(OpenFiles, OutOfDescriptorsPausesAcceptingAndRecovers) {
  TempFolder folder;
  LimitedVouchd server(folder.path(), 64, 64);
  ASSERT_NE(server.port(), 0) << server.log();

  // More idle connections than vouchd has descriptors left: the kernel
  // completes them all, vouchd can accept only some.
  const auto start = Clock::now();
  std::vector<int> connections;
  for (int i = 0; i < 100; ++i) {
    const int fd = open_idle_connection(server.port());
    ASSERT_GE(fd, 0);
    connections.push_back(fd);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  for (const int fd : connections) close(fd);

  // Accepting resumes once the descriptors are free again.
  HttpResponse health;
  for (int i = 0; i < 50 && health.status != 200; ++i) {
    health = send(server.port(), HttpRequest{"GET", "/healthz", "", "", "", {}});
    if (health.status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(health.status, 200u);
  const auto elapsed_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();

  // Said in the log, and at most once per 100 ms pause: not a busy loop
  // (which would fail and log thousands of times).
  const auto warned = [&] {
    return server.log().find("accepting a connection failed: Too many open files") !=
           std::string::npos;
  };
  EXPECT_TRUE(wait_until(warned)) << server.log();
  const auto log = server.log();
  const auto warnings = count(log, "accepting a connection failed: Too many open files");
  EXPECT_GE(warnings, 1u) << log;
  EXPECT_LE(warnings, static_cast<std::size_t>(elapsed_ms / 100 + 2)) << log;
}

}  // namespace
}  // namespace vouch::testing
