#include "vouchd_process.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/close_range.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

namespace vouch::testing {
namespace {

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
  FILE* stream = fdopen(out[0], "r");
  char line[256];
  while (fgets(line, sizeof line, stream)) {
    const std::string text(line);
    if (text.rfind(marker, 0) == 0) {
      child.line = text;
      break;
    }
    child.before.push_back(text);
  }
  // Keep draining stdout in the background so the child never blocks on it.
  std::thread([stream] {
    char rest[256];
    while (fgets(rest, sizeof rest, stream)) {
    }
    fclose(stream);
  }).detach();
  return child;
}

VouchdProcess::VouchdProcess(std::filesystem::path data, std::vector<std::string> extra_args,
                             Launch launch) {
  std::vector<std::string> args = std::move(launch.through);
  args.insert(args.end(), {VOUCHD_PATH, "--data", data.string(), "--listen", "127.0.0.1:0"});
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  const std::string marker = "listening on 127.0.0.1:";
  auto child = start_child(std::move(args), std::string("VOUCH_BOOTSTRAP_KEY=") + kAdminKey, marker,
                           launch.stderr_file);
  pid_ = child.pid;
  if (!child.line.empty()) {
    port_ = static_cast<std::uint16_t>(std::stoi(child.line.substr(marker.size())));
  }
  if (port_ == 0) ADD_FAILURE() << "vouchd did not print its port";
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
  waitpid(pid_, &status, 0);
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void VouchdProcess::kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
}

CommandResult run_vouchd(const std::vector<std::string>& args) {
  std::string command = VOUCHD_PATH;
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
