#include "process/sandbox/isolation.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "process/sandbox/command.hpp"
#include "process/sandbox/supervise.hpp"

namespace vouch::sandbox {
namespace {

const Limits kProbeLimits{5, 256, 64, 1, 5000};

bool works(Isolation isolation, std::uint64_t uid, bool is_root) {
  std::string folder = (std::filesystem::temp_directory_path() / "vouch-probe-XXXXXX").string();
  if (::mkdtemp(folder.data()) == nullptr) return false;
  Options probe;
  probe.workdir = folder;
  probe.command = {"true"};
  probe.limits = kProbeLimits;
  probe.uid = uid;
  auto ended = supervise(sandbox_command(probe, isolation, is_root), folder,
                         std::chrono::milliseconds(kProbeLimits.wall_ms), Streams::kQuiet);
  std::error_code ec;
  std::filesystem::remove_all(folder, ec);
  return ended && !ended->wall_expired && ended->code == 0;
}

}  // namespace

Isolation detect_isolation(std::uint64_t uid, bool is_root) {
  for (auto isolation : {Isolation::kBubblewrap, Isolation::kUnshare}) {
    if (works(isolation, uid, is_root)) return isolation;
  }
  return Isolation::kNone;
}

}  // namespace vouch::sandbox
