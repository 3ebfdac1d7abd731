// vouch-sandbox: runs one command in a sandbox with resource limits and
// reports how it ended. Usage and protocol: runner/README.md, "## sandbox".
//
// It is the parent of every runner and generator process vouchd starts, and
// lives as long as they do; written in C++ rather than as a Node.js script,
// it costs a run about 2 ms of CPU instead of a Node.js start (0.11 s here).

#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "process/sandbox/command.hpp"
#include "process/sandbox/isolation.hpp"
#include "process/sandbox/options.hpp"
#include "process/sandbox/outcome.hpp"
#include "process/sandbox/supervise.hpp"

namespace {

using namespace vouch::sandbox;

// The last line on stderr; returns the matching exit code.
int finish(const Outcome& outcome) {
  std::cerr << R"({"sandbox":)" << outcome.report << "}" << std::endl;
  return outcome.exit_code;
}

// The one line saying which isolation is in effect, and what it lacks.
std::string announce(Isolation isolation, const Options& options, bool is_root) {
  std::vector<std::string> missing;
  if (isolation == Isolation::kNone) missing.push_back("network reachable");
  if (isolation != Isolation::kBubblewrap) {
    missing.push_back("file system not isolated, --hide and --ro not applied");
  }
  if (!is_root) {
    missing.push_back("process limit not enforced (needs root to run as a uid of its own)");
  }
  std::string line = "sandbox: isolation " + std::string(name_of(isolation)) + ", ";
  line += is_root ? "uid " + std::to_string(options.uid)
                  : "uid " + std::to_string(::getuid()) + " (the launcher's)";
  for (const auto& gap : missing) line += "; " + gap;
  return line;
}

// The sandbox uid must be able to write its work folder (the server creates
// it). Links are changed themselves, never followed.
void chown_tree(const std::filesystem::path& folder, std::uint64_t uid) {
  const auto id = static_cast<uid_t>(uid);
  if (::lchown(folder.c_str(), id, id) != 0) return;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
    if (entry.is_directory(ec) && !entry.is_symlink(ec)) {
      chown_tree(entry.path(), uid);
    } else {
      [[maybe_unused]] auto ignored = ::lchown(entry.path().c_str(), id, id);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  // A command that stops reading its stdin must not take the launcher down.
  ::signal(SIGPIPE, SIG_IGN);
  const bool is_root = ::getuid() == 0;
  auto options = parse_options(std::vector<std::string>(argv + 1, argv + argc));
  if (!options) {
    std::cerr << "vouch-sandbox: " << options.error().message << "\n" << kUsage << std::endl;
    return finish(sandbox_failed(options.error().message));
  }
  if (options->probe) {
    const auto isolation = detect_isolation(default_uid(), is_root);
    std::cout << R"({"isolation":)" << json_quoted(name_of(isolation)) << R"(,"network":)"
              << (isolation == Isolation::kNone ? "true" : "false") << "}" << std::endl;
    return 0;
  }

  const auto isolation = options->isolation == Isolation::kAuto
                             ? detect_isolation(options->uid, is_root)
                             : options->isolation;
  std::cerr << announce(isolation, *options, is_root) << std::endl;
  if (is_root) chown_tree(options->workdir, options->uid);
  const auto command = sandbox_command(*options, isolation, is_root);
  auto ended =
      supervise(command, options->workdir, std::chrono::milliseconds(options->limits.wall_ms));
  if (!ended) return finish(sandbox_failed(ended.error().message));
  ended->via_bwrap = isolation == Isolation::kBubblewrap;
  return finish(describe_outcome(*ended, options->limits));
}
