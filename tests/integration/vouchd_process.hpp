#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace vouch::testing {

// Where VouchdProcess keeps the master key of webhook secrets for `data`:
// beside it, "<data>.secrets.key".
std::filesystem::path secrets_key_file_of(const std::filesystem::path& data);

// The real vouchd, started as a child process on 127.0.0.1:0 with a data
// folder, --secrets-key-file secrets_key_file_of(data) unless `extra_args`
// names one, VOUCH_BOOTSTRAP_KEY set, and its printed port read back.
class VouchdProcess {
 public:
  static constexpr const char* kAdminKey = "vk_integration_admin_key";

  // How vouchd is started beyond its arguments.
  struct Launch {
    std::vector<std::string> through;   // a command that execs it ({"prlimit", "--nofile=64"})
    std::filesystem::path stderr_file;  // its stderr goes here; inherited when empty
  };

  // Starts vouchd (with `extra_args` after --data and --listen) and waits
  // for "listening on"; fails the test otherwise.
  explicit VouchdProcess(std::filesystem::path data, std::vector<std::string> extra_args = {},
                         Launch launch = {});
  ~VouchdProcess();  // SIGKILLs the process if it still runs

  pid_t pid() const { return pid_; }
  std::uint16_t port() const { return port_; }
  // Where workers join (--workers-listen 127.0.0.1:0); 0 without it.
  std::uint16_t workers_port() const { return workers_port_; }
  // SIGTERM and wait (at most kStopDeadline, then SIGKILL and a failure);
  // returns the exit status (or -1).
  int terminate();
  // SIGKILL and wait: a crash.
  void kill();

 private:
  pid_t pid_ = -1;
  std::uint16_t port_ = 0;
  std::uint16_t workers_port_ = 0;
};

// How long a child may take to print its marker line, and vouchd to stop
// after SIGTERM, before the test fails and the process is killed (long
// enough for the sanitizer build on a busy machine).
inline constexpr std::chrono::seconds kStartDeadline{120};
inline constexpr std::chrono::seconds kStopDeadline{120};

// A child started with `args` (args[0] found on PATH), one variable added to
// its environment when `env` is not empty, stderr to `stderr_file` when one is
// given, and stdout read until a line that starts with `marker`; the rest of
// stdout is drained in the background, so the child never blocks on it.
// `line` is empty when no such line came within kStartDeadline (the child is
// then killed, and `pid` is -1); `before` holds the lines before it.
struct StartedChild {
  pid_t pid = -1;
  std::string line;
  std::vector<std::string> before;
};
StartedChild start_child(std::vector<std::string> args, const std::string& env,
                         const std::string& marker, const std::filesystem::path& stderr_file = {});

// Runs `vouchd ARGS...` to completion; returns its exit status and stdout.
struct CommandResult {
  int status = -1;
  std::string out;
};
CommandResult run_vouchd(const std::vector<std::string>& args);

}  // namespace vouch::testing
