// The only translation unit that compiles Asio's pipes and Boost.Process.
// Boost.Process v2 (1.81) with std::filesystem, so that no Boost.Filesystem
// library is needed; its config header forgets two includes in that mode.
// clang-format off
#define BOOST_PROCESS_USE_STD_FS 1
#include <boost/optional.hpp>
#include <boost/type_traits/remove_pointer.hpp>
#include <type_traits>
// clang-format on

#include "actors/execution/child_process.hpp"

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
#include <boost/process/v2/environment.hpp>
#include <boost/process/v2/process.hpp>
#include <boost/process/v2/start_dir.hpp>
#include <boost/process/v2/stdio.hpp>
// Compiles the library part of Boost.Process v2 here (it ships no binary).
#include <boost/process/v2/impl/environment.ipp>
#include <mutex>
#include <set>
#include <thread>

namespace vouch::actors {
namespace {

namespace asio = boost::asio;
namespace bp = boost::process::v2;

// Runs in the forked child, just before exec:
// - Nothing of the server's crosses into the child: every descriptor above
//   stdio is marked close-on-exec, whoever opened it and however (Asio's
//   sockets are not close-on-exec, the listening socket among them, and
//   Boost.Process 1.81's own clean-up skips the descriptors below its error
//   pipe: its close_all() compares each whitelisted descriptor with itself).
//   Close-on-exec rather than closed: the launcher's error pipe must live
//   until exec succeeds.
// - The child gets a process group of its own, so that killing the group
//   reaches everything it started, and the kernel kills it when vouchd dies
//   (even by SIGKILL), so no runner outlives the server. The death signal
//   follows the launching thread: children are started from threads that
//   live as long as the server (CAF's workers, the main thread).
struct ChildSetup {
  template <class Launcher>
  bp::error_code on_exec_setup(Launcher&, const std::filesystem::path&, const char* const*) {
    if (::close_range(STDERR_FILENO + 1, ~0U, CLOSE_RANGE_CLOEXEC) != 0) {
      return bp::error_code(errno, bp::system_category());
    }
    if (::setpgid(0, 0) != 0) return bp::error_code(errno, bp::system_category());
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) {
      return bp::error_code(errno, bp::system_category());
    }
    return {};
  }
};

}  // namespace

struct ProcessHost::Impl {
  Impl() : guard(context.get_executor()), thread([this] { context.run(); }) {}

  // Launches happen on this context, which nothing runs and which holds no
  // descriptors. Boost.Process tells the launching executor's context of the
  // fork (notify_fork), and in the child that re-registers every descriptor
  // of the context with a new epoll: done on `context`, which its thread uses
  // at the same time, it could throw in the child (a pipe closed meanwhile)
  // and the child went on running vouchd's code. The launched process is then
  // attached to `context` by its pid.
  asio::io_context launcher;
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

events::Result<std::shared_ptr<ChildProcess>> ChildProcess::start(ProcessHost& host,
                                                                  ProcessSpec spec) {
  auto state = std::make_shared<State>(host.impl());
  // Launching only forks and execs; it is safe from any thread.
  const pid_t launching = ::getpid();
  try {
    bp::process launched(host.impl().launcher, spec.program, spec.args,
                         bp::process_stdio{state->in, state->out, state->err},
                         bp::process_start_dir{spec.cwd.string()},
                         bp::process_environment{spec.env}, ChildSetup{});
    state->pid = launched.id();
    launched.detach();
    state->process.emplace(host.impl().context.get_executor(), state->pid);
  } catch (const std::exception& error) {
    // Never go on in a child that failed between fork and exec.
    if (::getpid() != launching) ::_exit(127);
    return events::Error::unavailable("could not start " + spec.program.string() + ": " +
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

}  // namespace vouch::actors
