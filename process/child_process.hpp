#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"

namespace vouch::process {

// The thread that drives every child process of the server (runners, npm)
// with Asio: their pipes, exits and deadlines. Nothing blocks an actor
// thread. Destroying the host kills what still runs.
class ProcessHost {
 public:
  ProcessHost();
  ~ProcessHost();
  ProcessHost(const ProcessHost&) = delete;
  ProcessHost& operator=(const ProcessHost&) = delete;

  // Kills every child's process group now (vouchd is stopping): their
  // owners then see them end, as they would at a deadline.
  void kill_all();

  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

struct ProcessSpec {
  std::filesystem::path program;  // absolute
  std::vector<std::string> args;
  std::vector<std::string> env;  // "NAME=value"; nothing else is inherited
  std::filesystem::path cwd;
};

struct ProcessExit {
  int code = -1;            // exit code, or -1 when signalled
  int signal = 0;           // the signal that ended it, 0 when it exited
  std::string stderr_tail;  // the last kStderrTail bytes it wrote to stderr
  bool killed = false;      // we killed it (deadline, grace or kill())
};

// One child process, in a process group of its own, with pipes on stdin,
// stdout and stderr. Every callback runs on the host's thread and must not
// block. The process is killed (the whole group) when the last reference
// goes before anyone called wait(), so a forgotten runner never outlives its
// owner; after wait(), its grace bounds the process's life.
class ChildProcess : public std::enable_shared_from_this<ChildProcess> {
 public:
  static constexpr std::size_t kStderrTail = 16 * 1024;
  static constexpr std::size_t kMaxLine = 64 * 1024 * 1024;

  using LineCallback = std::function<void(std::optional<std::string>)>;
  using ExitCallback = std::function<void(ProcessExit)>;

  // kUnavailable when it cannot be started (missing program, no resources).
  [[nodiscard]] static base::Result<std::shared_ptr<ChildProcess>> start(ProcessHost& host,
                                                                         ProcessSpec spec);
  ~ChildProcess();

  // Writes `input` to stdin (then closes stdin when `close_stdin`), and
  // reads the next line of stdout. `done` gets the line without its "\n",
  // or nullopt when stdout ended, the line exceeded kMaxLine, or `timeout`
  // passed first (then the process is killed).
  void exchange(std::string input, bool close_stdin, std::chrono::milliseconds timeout,
                LineCallback done);

  // Waits until the process has exited and stderr is drained; kills the
  // group when that takes longer than `grace`.
  void wait(std::chrono::milliseconds grace, ExitCallback done);

  // SIGKILL to the whole process group.
  void kill();

  int pid() const;

  struct State;

 private:
  explicit ChildProcess(std::shared_ptr<State> state) : state_(std::move(state)) {}
  std::shared_ptr<State> state_;
};

}  // namespace vouch::process
