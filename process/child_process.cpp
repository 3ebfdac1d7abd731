// The only translation unit that compiles Asio's pipes and Boost.Process.
// Children are launched here by hand (see launch()); Boost.Process v2 (1.81)
// watches their end. It is used with std::filesystem, so that no
// Boost.Filesystem library is needed; its config header forgets two includes
// in that mode.
// clang-format off
#define BOOST_PROCESS_USE_STD_FS 1
#include <boost/optional.hpp>
#include <boost/type_traits/remove_pointer.hpp>
#include <type_traits>
// clang-format on

#include "process/child_process.hpp"

#include <fcntl.h>
#include <linux/close_range.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/readable_pipe.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/writable_pipe.hpp>
#include <boost/asio/write.hpp>
#include <boost/process/v2/process.hpp>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>
#include <utility>

namespace vouch::process {
namespace {

namespace asio = boost::asio;
namespace bp = boost::process::v2;

// A pipe whose ends are closed unless released to their new owner.
struct Pipe {
  int ends[2] = {-1, -1};
  Pipe() = default;
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  ~Pipe() {
    for (const int end : ends) {
      if (end >= 0) ::close(end);
    }
  }
  bool open() { return ::pipe2(ends, O_CLOEXEC) == 0; }
  int release(int which) { return std::exchange(ends[which], -1); }
  void close(int which) { ::close(release(which)); }
};

base::Error could_not_start(const ProcessSpec& spec, const std::string& why) {
  return base::Error::unavailable("could not start " + spec.program.string() + ": " + why);
}

// Ends a child that could not exec, telling the parent why.
[[noreturn]] void fail_child(int error_pipe) {
  const int error = errno;
  [[maybe_unused]] const auto written = ::write(error_pipe, &error, sizeof error);
  ::_exit(127);
}

// The child's half of a launch: only async-signal-safe calls, no allocation
// (the parent may have had any lock held by another thread at the fork).
// - stdin, stdout and stderr become the pipes' ends; nothing else of the
//   server's crosses into the child: every descriptor above stdio is marked
//   close-on-exec, whoever opened it and however (Asio's sockets are not
//   close-on-exec, the listening socket among them). Marked rather than
//   closed: the error pipe must live until exec succeeds.
// - Signals as a fresh process has them: none blocked, SIGPIPE (which the
//   server ignores) back to its default.
// - A process group of its own, so that killing the group reaches
//   everything it started, and the kernel kills it when vouchd dies (even by
//   SIGKILL), so no runner outlives the server. The death signal follows the
//   launching thread: children are started from threads that live as long as
//   the server (CAF's workers, the main thread).
[[noreturn]] void exec_child(const char* program, char* const argv[], char* const envp[],
                             const char* cwd, const int stdio[3], int error_pipe, pid_t parent) {
  for (int fd = 0; fd < 3; ++fd) {
    if (::dup2(stdio[fd], fd) < 0) fail_child(error_pipe);
  }
  sigset_t none;
  ::sigemptyset(&none);
  if (::sigprocmask(SIG_SETMASK, &none, nullptr) != 0) fail_child(error_pipe);
  ::signal(SIGPIPE, SIG_DFL);
  if (::close_range(STDERR_FILENO + 1, ~0U, CLOSE_RANGE_CLOEXEC) != 0) fail_child(error_pipe);
  if (::setpgid(0, 0) != 0) fail_child(error_pipe);
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) fail_child(error_pipe);
  if (::getppid() != parent) ::_exit(127);  // the server died before the line above
  if (::chdir(cwd) != 0) fail_child(error_pipe);
  ::execve(program, argv, envp);
  fail_child(error_pipe);
}

// Starts `spec` with the given pipes as its stdin, stdout and stderr; returns
// its pid, once it has exec'd.
//
// By hand rather than with Boost.Process's launcher: Boost.Process 1.81
// allocates in the forked child (Asio's notify_fork copies the context's
// services into a vector, the descriptor whitelist is a vector) and then
// waits for the child's exec. An allocator lock that another thread held at
// the fork never opens in the child, so the launching thread waited forever:
// vouchd hung at start under AddressSanitizer, whose allocator (LLVM 14) does
// not prepare for fork.
base::Result<pid_t> launch(const ProcessSpec& spec, Pipe& in, Pipe& out, Pipe& err) {
  // Everything the child reads is built before the fork.
  const std::string program = spec.program.string();
  const std::string cwd = spec.cwd.string();
  std::vector<std::string> args{program};
  args.insert(args.end(), spec.args.begin(), spec.args.end());
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::vector<std::string> env = spec.env;
  std::vector<char*> envp;
  for (auto& variable : env) envp.push_back(variable.data());
  envp.push_back(nullptr);
  const int stdio[3] = {in.ends[0], out.ends[1], err.ends[1]};

  auto failed = [&spec](int error) { return could_not_start(spec, std::strerror(error)); };
  Pipe exec_error;
  if (!exec_error.open()) return failed(errno);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) return failed(errno);
  if (pid == 0) {
    exec_child(program.c_str(), argv.data(), envp.data(), cwd.c_str(), stdio, exec_error.ends[1],
               parent);
  }
  exec_error.close(1);
  in.close(0);
  out.close(1);
  err.close(1);
  // The error pipe closes at exec, or carries the errno of what failed.
  int error = 0;
  ssize_t got = 0;
  do {
    got = ::read(exec_error.ends[0], &error, sizeof error);
  } while (got < 0 && errno == EINTR);
  if (got == 0) return pid;
  ::waitpid(pid, nullptr, 0);
  return failed(got == sizeof error ? error : EIO);
}

}  // namespace

struct ProcessHost::Impl {
  Impl() : guard(context.get_executor()), thread([this] { context.run(); }) {}

  ~Impl() {
    kill_all();
    guard.reset();
    context.stop();
    thread.join();
  }

  void kill_all() {
    std::lock_guard lock(mutex);
    for (const int group : groups) ::kill(-group, SIGKILL);
  }

  void track(int group) {
    std::lock_guard lock(mutex);
    groups.insert(group);
  }
  void forget(int group) {
    std::lock_guard lock(mutex);
    groups.erase(group);
  }

  asio::io_context context;
  asio::executor_work_guard<asio::io_context::executor_type> guard;
  std::mutex mutex;
  std::set<int> groups;  // process groups still running, killed at shutdown
  std::thread thread;
};

ProcessHost::ProcessHost() {
  // A child that dies while we write to it must not take the server down.
  ::signal(SIGPIPE, SIG_IGN);
  impl_ = std::make_unique<Impl>();
}

ProcessHost::~ProcessHost() = default;

void ProcessHost::kill_all() { impl_->kill_all(); }

struct ChildProcess::State : std::enable_shared_from_this<State> {
  State(ProcessHost::Impl& host)
      : host(host),
        in(host.context),
        out(host.context),
        err(host.context),
        out_buffer(kMaxLine),
        line_timer(host.context),
        wait_timer(host.context) {}

  void kill_group() {
    if (!exited) {
      killed = true;
      ::kill(-pid, SIGKILL);
    }
  }

  void drain_stderr() {
    err.async_read_some(asio::buffer(err_chunk),
                        [self = shared_from_this()](bp::error_code ec, std::size_t n) {
                          self->stderr_tail.append(self->err_chunk.data(), n);
                          if (self->stderr_tail.size() > kStderrTail) {
                            self->stderr_tail.erase(0, self->stderr_tail.size() - kStderrTail);
                          }
                          if (ec) {
                            self->stderr_done = true;
                            self->maybe_report_exit();
                          } else {
                            self->drain_stderr();
                          }
                        });
  }

  void watch_exit() {
    process->async_wait([self = shared_from_this()](bp::error_code, int) {
      const int status = self->process->native_exit_code();
      self->exited = true;
      self->host.forget(self->pid);
      if (WIFEXITED(status)) {
        self->exit.code = WEXITSTATUS(status);
      } else if (WIFSIGNALED(status)) {
        self->exit.signal = WTERMSIG(status);
      }
      // What the leader left running may hold stderr open: end it shortly.
      ::kill(-self->pid, SIGKILL);
      self->maybe_report_exit();
    });
  }

  void maybe_report_exit() {
    if (!exited || !stderr_done || !on_exit) return;
    wait_timer.cancel();
    exit.stderr_tail = stderr_tail;
    exit.killed = killed;
    auto done = std::move(on_exit);
    on_exit = nullptr;
    done(exit);
  }

  ProcessHost::Impl& host;
  asio::writable_pipe in;
  asio::readable_pipe out;
  asio::readable_pipe err;
  std::optional<bp::process> process;
  int pid = 0;
  asio::streambuf out_buffer;
  std::array<char, 4096> err_chunk{};
  std::string stderr_tail;
  asio::steady_timer line_timer;
  asio::steady_timer wait_timer;
  bool exited = false;
  bool stderr_done = false;
  bool killed = false;
  bool awaited = false;  // wait() was called: its grace bounds the process's life
  ProcessExit exit;
  ExitCallback on_exit;
};

base::Result<std::shared_ptr<ChildProcess>> ChildProcess::start(ProcessHost& host,
                                                                ProcessSpec spec) {
  auto state = std::make_shared<State>(host.impl());
  Pipe in, out, err;
  if (!in.open() || !out.open() || !err.open()) {
    return could_not_start(spec, std::string("no pipes (") + std::strerror(errno) + ")");
  }
  auto pid = launch(spec, in, out, err);
  if (!pid) return std::move(pid).error();
  state->pid = *pid;
  try {
    state->in.assign(in.release(1));
    state->out.assign(out.release(0));
    state->err.assign(err.release(0));
    state->process.emplace(host.impl().context.get_executor(), state->pid);
  } catch (const std::exception& error) {
    // Out of descriptors for its pidfd, say: the child cannot be watched, so it goes.
    ::kill(-state->pid, SIGKILL);
    ::waitpid(state->pid, nullptr, 0);
    return base::Error::unavailable("could not watch " + spec.program.string() + ": " +
                                    error.what());
  }
  host.impl().track(state->pid);
  asio::post(host.impl().context, [state] {
    state->drain_stderr();
    state->watch_exit();
  });
  return std::shared_ptr<ChildProcess>(new ChildProcess(std::move(state)));
}

ChildProcess::~ChildProcess() {
  // Unless someone waits for its end (bounded by the wait's grace), a process
  // nobody holds is killed.
  asio::post(state_->host.context, [state = state_] {
    if (!state->awaited) state->kill_group();
  });
}

int ChildProcess::pid() const { return state_->pid; }

void ChildProcess::kill() {
  asio::post(state_->host.context, [state = state_] { state->kill_group(); });
}

void ChildProcess::exchange(std::string input, bool close_stdin, std::chrono::milliseconds timeout,
                            LineCallback done) {
  asio::post(state_->host.context, [state = state_, input = std::move(input), close_stdin, timeout,
                                    done = std::move(done)]() mutable {
    auto once = std::make_shared<LineCallback>(std::move(done));
    auto finish = [state, once](std::optional<std::string> line) {
      if (!*once) return;
      state->line_timer.cancel();
      auto callback = std::move(*once);
      *once = nullptr;
      callback(std::move(line));
    };
    state->line_timer.expires_after(timeout);
    state->line_timer.async_wait([state, finish](bp::error_code ec) {
      if (ec) return;  // cancelled: the line came first
      state->kill_group();
      finish(std::nullopt);
    });
    if (!input.empty()) {
      auto data = std::make_shared<std::string>(std::move(input));
      asio::async_write(state->in, asio::buffer(*data),
                        [state, data, close_stdin](bp::error_code, std::size_t) {
                          // A failed write shows as the child's early end on stdout.
                          if (close_stdin) state->in.close();
                        });
    } else if (close_stdin) {
      state->in.close();
    }
    asio::async_read_until(
        state->out, state->out_buffer, '\n', [state, finish](bp::error_code ec, std::size_t n) {
          if (ec) return finish(std::nullopt);
          const auto data = state->out_buffer.data();
          std::string line(asio::buffers_begin(data), asio::buffers_begin(data) + (n - 1));
          state->out_buffer.consume(n);
          finish(std::move(line));
        });
  });
}

void ChildProcess::wait(std::chrono::milliseconds grace, ExitCallback done) {
  asio::post(state_->host.context, [state = state_, grace, done = std::move(done)]() mutable {
    state->on_exit = std::move(done);
    state->awaited = true;
    state->wait_timer.expires_after(grace);
    state->wait_timer.async_wait([state](bp::error_code ec) {
      if (ec) return;
      state->kill_group();
      if (state->exited) state->err.close();  // a grandchild held stderr open
    });
    state->maybe_report_exit();
  });
}

}  // namespace vouch::process
