#include "vouchd_process.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/close_range.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "http_client.hpp"

namespace vouch::testing {
namespace {

// The vouchd the tests start: $VOUCHD when set (scripts/sanitize.sh runs some of these tests
// against its sanitized build), else the one built with them.
std::string vouchd_path() {
  const char* chosen = std::getenv("VOUCHD");
  return chosen && *chosen ? chosen : VOUCHD_PATH;
}

std::vector<char*> argv_of(std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  return argv;
}

}  // namespace

StartedChild start_child(std::vector<std::string> args, const std::string& env,
                         const std::string& marker, const std::filesystem::path& stderr_file) {
  StartedChild child;
  int out[2];
  if (pipe(out) != 0) {
    ADD_FAILURE() << "pipe failed";
    return child;
  }
  child.pid = fork();
  if (child.pid == 0) {
    dup2(out[1], STDOUT_FILENO);
    close(out[0]);
    close(out[1]);
    if (!stderr_file.empty()) {
      const int err = open(stderr_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (err < 0) _exit(127);
      dup2(err, STDERR_FILENO);
      close(err);
    }
    if (!env.empty()) putenv(const_cast<char*>(env.c_str()));
    // Nothing of the test's own (or its harness's) crosses into the child.
    close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
    auto argv = argv_of(args);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  close(out[1]);
  // Reads stdout until the marker's line, for a bounded time: a child that
  // hangs before printing it fails the test instead of hanging the suite.
  std::string pending;
  const auto deadline = std::chrono::steady_clock::now() + kStartDeadline;
  while (child.line.empty()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) break;
    pollfd readable{out[0], POLLIN, 0};
    const int ready = ::poll(&readable, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) break;
    char chunk[4096];
    const auto got = ::read(out[0], chunk, sizeof chunk);
    if (got <= 0) break;  // the child ended
    pending.append(chunk, static_cast<std::size_t>(got));
    for (auto end = pending.find('\n'); end != std::string::npos && child.line.empty();
         end = pending.find('\n')) {
      std::string text = pending.substr(0, end + 1);
      pending.erase(0, end + 1);
      if (text.rfind(marker, 0) == 0) {
        child.line = std::move(text);
      } else {
        child.before.push_back(std::move(text));
      }
    }
  }
  if (child.line.empty()) {
    ADD_FAILURE() << args[0] << " printed no line starting with \"" << marker << "\" within "
                  << kStartDeadline.count() << " s; killed";
    ::kill(child.pid, SIGKILL);
    waitpid(child.pid, nullptr, 0);
    child.pid = -1;
    ::close(out[0]);
    return child;
  }
  // Keep draining stdout in the background so the child never blocks on it.
  std::thread([fd = out[0]] {
    char rest[4096];
    while (::read(fd, rest, sizeof rest) > 0) {
    }
    ::close(fd);
  }).detach();
  return child;
}

std::filesystem::path secrets_key_file_of(const std::filesystem::path& data) {
  return data.parent_path() / (data.filename().string() + ".secrets.key");
}

VouchdProcess::VouchdProcess(std::filesystem::path data, std::vector<std::string> extra_args,
                             Launch launch) {
  std::vector<std::string> args = std::move(launch.through);
  args.insert(args.end(), {vouchd_path(), "--data", data.string(), "--listen", "127.0.0.1:0"});
  // The master key of webhook secrets beside the data folder (so in the
  // test's temporary folder), unless the test names one.
  if (std::find(extra_args.begin(), extra_args.end(), "--secrets-key-file") == extra_args.end()) {
    args.insert(args.end(), {"--secrets-key-file", secrets_key_file_of(data).string()});
  }
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  const std::string marker = "listening on 127.0.0.1:";
  auto child = start_child(std::move(args), std::string("VOUCH_BOOTSTRAP_KEY=") + kAdminKey, marker,
                           launch.stderr_file);
  pid_ = child.pid;
  if (!child.line.empty()) {
    port_ = static_cast<std::uint16_t>(std::stoi(child.line.substr(marker.size())));
  }
  if (port_ == 0) ADD_FAILURE() << "vouchd did not print its port";
  if (std::find(extra_args.begin(), extra_args.end(), "--no-rate-limits") != extra_args.end()) {
    set_rate_limits_off(port_, true);
  }
  const std::string workers = "workers listening on 127.0.0.1:";
  for (const auto& line : child.before) {
    if (line.rfind(workers, 0) == 0) {
      workers_port_ = static_cast<std::uint16_t>(std::stoi(line.substr(workers.size())));
    }
  }
}

VouchdProcess::~VouchdProcess() {
  if (pid_ > 0) kill();
}

int VouchdProcess::terminate() {
  if (pid_ <= 0) return -1;
  ::kill(pid_, SIGTERM);
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + kStopDeadline;
  while (waitpid(pid_, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ADD_FAILURE() << "vouchd did not stop within " << kStopDeadline.count()
                    << " s of SIGTERM; killed";
      kill();
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  pid_ = -1;
  set_rate_limits_off(port_, false);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void VouchdProcess::kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
  set_rate_limits_off(port_, false);
}

CommandResult run_vouchd(const std::vector<std::string>& args) {
  std::string command = vouchd_path();
  for (const auto& arg : args) command += " '" + arg + "'";
  CommandResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  std::size_t read = 0;
  while ((read = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, read);
  const int status = pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace vouch::testing
