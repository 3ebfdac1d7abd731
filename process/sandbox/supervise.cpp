#include "process/sandbox/supervise.hpp"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <optional>

namespace vouch::sandbox {
namespace {

using Clock = std::chrono::steady_clock;

// stderr passed on to the server at most (so that a chatty command cannot
// flood its logs), and kept to recognise how the command died.
constexpr std::size_t kStderrRelayLimit = 1024 * 1024;
constexpr std::size_t kStderrTailChars = 4096;
// stderr closes when the last process holding it ends. Without bubblewrap a
// process can leave the command's process group and outlive the kill; it
// must not hold the report back for long.
constexpr auto kStderrCloseGrace = std::chrono::milliseconds(1000);

base::Error failure(const std::string& what) {
  return base::Error::internal(what + ": " + ::strerror(errno));
}

void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const auto written = ::write(fd, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;
    data += written;
    size -= static_cast<std::size_t>(written);
  }
}

// argv and envp as execve takes them, built before the fork.
std::vector<char*> pointers(const std::vector<std::string>& strings) {
  std::vector<char*> result;
  result.reserve(strings.size() + 1);
  for (const auto& text : strings) result.push_back(const_cast<char*>(text.c_str()));
  result.push_back(nullptr);
  return result;
}

// The command's program on the launcher's PATH ("prlimit" → /usr/bin/prlimit).
std::string resolve(const std::string& program) {
  if (program.find('/') != std::string::npos) return program;
  const char* path = std::getenv("PATH");
  std::string_view folders = path ? path : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    const auto colon = folders.find(':');
    std::string candidate(folders.substr(0, colon));
    if (!candidate.empty()) {
      candidate += "/" + program;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    if (colon == std::string_view::npos) return program;
    folders.remove_prefix(colon + 1);
  }
}

struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int value) : fd(value) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

// Blocks `signals` for as long as it lives, then restores the mask it found.
class BlockedSignals {
 public:
  explicit BlockedSignals(const sigset_t& signals) {
    ::sigprocmask(SIG_BLOCK, &signals, &previous_);
  }
  BlockedSignals(const BlockedSignals&) = delete;
  BlockedSignals& operator=(const BlockedSignals&) = delete;
  ~BlockedSignals() { ::sigprocmask(SIG_SETMASK, &previous_, nullptr); }

 private:
  sigset_t previous_;
};

}  // namespace

base::Result<Ended> supervise(const Command& command, const std::filesystem::path& cwd,
                              std::chrono::milliseconds wall, Streams streams) {
  const bool relayed = streams == Streams::kRelayed;
  if (command.argv.empty()) return base::Error::invalid("no command");
  int stdin_pipe[2];
  int stderr_pipe[2];
  int exec_error[2];
  if (::pipe2(stdin_pipe, O_CLOEXEC) != 0) return failure("pipe");
  Fd stdin_read(stdin_pipe[0]), stdin_write(stdin_pipe[1]);
  if (::pipe2(stderr_pipe, O_CLOEXEC) != 0) return failure("pipe");
  Fd stderr_read(stderr_pipe[0]), stderr_write(stderr_pipe[1]);
  if (::pipe2(exec_error, O_CLOEXEC) != 0) return failure("pipe");
  Fd error_read(exec_error[0]), error_write(exec_error[1]);
  Fd null_output(relayed ? -1 : ::open("/dev/null", O_WRONLY | O_CLOEXEC));
  if (!relayed && null_output.fd < 0) return failure("/dev/null");

  // SIGCHLD and the stopping signals arrive through a descriptor, so that
  // one poll() watches everything; the child gets an empty mask back.
  sigset_t watched;
  sigemptyset(&watched);
  for (int signal : {SIGCHLD, SIGTERM, SIGINT, SIGHUP}) sigaddset(&watched, signal);
  const BlockedSignals blocked(watched);
  Fd signals(::signalfd(-1, &watched, SFD_CLOEXEC | SFD_NONBLOCK));
  if (signals.fd < 0) return failure("signalfd");

  const auto program = resolve(command.argv[0]);
  auto argv = pointers(command.argv);
  auto envp = pointers(command.env);
  const pid_t pid = ::fork();
  if (pid < 0) return failure("fork");
  if (pid == 0) {
    // Only async-signal-safe calls from here to execve.
    ::dup2(stdin_pipe[0], STDIN_FILENO);
    ::dup2(stderr_pipe[1], STDERR_FILENO);
    if (null_output.fd >= 0) ::dup2(null_output.fd, STDOUT_FILENO);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::signal(SIGPIPE, SIG_DFL);
    ::setsid();
    if (::chdir(cwd.c_str()) == 0) ::execve(program.c_str(), argv.data(), envp.data());
    const int error = errno;
    [[maybe_unused]] auto ignored = ::write(exec_error[1], &error, sizeof error);
    ::_exit(127);
  }
  stdin_read.reset();
  stderr_write.reset();
  error_write.reset();
  int exec_errno = 0;
  ssize_t got;
  do {
    got = ::read(error_read.fd, &exec_errno, sizeof exec_errno);
  } while (got < 0 && errno == EINTR);
  if (got > 0) {
    ::waitpid(pid, nullptr, 0);
    errno = exec_errno;
    return failure("could not start " + command.argv[0]);
  }
  ::fcntl(stdin_write.fd, F_SETFL, O_NONBLOCK);

  auto kill_all = [pid] { ::kill(-pid, SIGKILL); };
  Ended ended;
  std::optional<Clock::time_point> wall_deadline;
  if (!relayed) wall_deadline = Clock::now() + wall;
  std::optional<Clock::time_point> stderr_deadline;  // set once the command has ended
  bool exited = false;
  bool stdin_open = relayed;  // the launcher's own stdin
  std::string pending;        // read from stdin, not yet taken by the command
  bool close_when_written = !relayed;
  std::size_t stderr_relayed = 0;
  char buffer[65536];
  if (close_when_written) stdin_write.reset();

  while (!exited || stderr_read.fd >= 0) {
    const auto now = Clock::now();
    if (wall_deadline && !exited && now >= *wall_deadline) {
      ended.wall_expired = true;
      kill_all();
      wall_deadline.reset();
    }
    if (stderr_deadline && now >= *stderr_deadline) break;
    auto next = stderr_deadline ? stderr_deadline : (exited ? std::nullopt : wall_deadline);
    int timeout = -1;
    if (next) {
      timeout = static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(*next - now).count());
    }

    pollfd fds[4];
    nfds_t count = 0;
    fds[count++] = {signals.fd, POLLIN, 0};
    const int stderr_at = stderr_read.fd >= 0 ? static_cast<int>(count) : -1;
    if (stderr_read.fd >= 0) fds[count++] = {stderr_read.fd, POLLIN, 0};
    const int stdin_at =
        stdin_open && pending.empty() && stdin_write.fd >= 0 ? static_cast<int>(count) : -1;
    if (stdin_at >= 0) fds[count++] = {STDIN_FILENO, POLLIN, 0};
    const int command_at = !pending.empty() && stdin_write.fd >= 0 ? static_cast<int>(count) : -1;
    if (command_at >= 0) fds[count++] = {stdin_write.fd, POLLOUT, 0};
    if (::poll(fds, count, timeout) < 0) {
      if (errno == EINTR) continue;
      kill_all();
      return failure("poll");
    }

    if (fds[0].revents & POLLIN) {
      signalfd_siginfo info;
      while (::read(signals.fd, &info, sizeof info) == sizeof info) {
        if (info.ssi_signo != SIGCHLD) {
          kill_all();
          ::_exit(128 + static_cast<int>(info.ssi_signo));
        }
      }
      int status = 0;
      if (!exited && ::waitpid(pid, &status, WNOHANG) == pid) {
        exited = true;
        if (WIFEXITED(status)) ended.code = WEXITSTATUS(status);
        if (WIFSIGNALED(status)) ended.signal = WTERMSIG(status);
        // Whatever the command left behind in its group goes with it.
        kill_all();
        stdin_write.reset();
        stderr_deadline = Clock::now() + kStderrCloseGrace;
      }
    }
    if (stderr_at >= 0 && fds[stderr_at].revents) {
      const auto size = ::read(stderr_read.fd, buffer, sizeof buffer);
      if (size > 0) {
        const auto n = static_cast<std::size_t>(size);
        if (relayed && stderr_relayed < kStderrRelayLimit) {
          const auto passed = std::min(n, kStderrRelayLimit - stderr_relayed);
          write_all(STDERR_FILENO, buffer, passed);
          stderr_relayed += passed;
        }
        ended.stderr_tail.append(buffer, n);
        if (ended.stderr_tail.size() > kStderrTailChars) {
          ended.stderr_tail.erase(0, ended.stderr_tail.size() - kStderrTailChars);
        }
      } else if (size == 0 || errno != EINTR) {
        stderr_read.reset();
      }
    }
    if (stdin_at >= 0 && fds[stdin_at].revents) {
      wall_deadline = wall_deadline.value_or(Clock::now() + wall);
      const auto size = ::read(STDIN_FILENO, buffer, sizeof buffer);
      if (size > 0) {
        pending.assign(buffer, static_cast<std::size_t>(size));
      } else if (size == 0 || errno != EINTR) {
        stdin_open = false;
        close_when_written = true;
      }
    }
    if (command_at >= 0 && fds[command_at].revents) {
      const auto written = ::write(stdin_write.fd, pending.data(), pending.size());
      if (written > 0) {
        pending.erase(0, static_cast<std::size_t>(written));
      } else if (written < 0 && errno != EAGAIN && errno != EINTR) {
        // The command may exit without reading all its input.
        pending.clear();
        stdin_open = false;
        close_when_written = true;
      }
    }
    if (close_when_written && pending.empty()) stdin_write.reset();
  }
  return ended;
}

}  // namespace vouch::sandbox
