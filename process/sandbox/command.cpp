#include "process/sandbox/command.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "process/sandbox/node_heap.hpp"

namespace vouch::sandbox {
namespace {

constexpr std::uint64_t kMb = 1024 * 1024;

// CPU: SIGXCPU at the soft limit, SIGKILL a second later if it is caught.
// Memory: RLIMIT_DATA caps each process's private writable memory (V8's
// heap pages, buffers, malloc) while leaving V8's large virtual reservations
// alone, which RLIMIT_AS would break. Node fails cleanly at it: an endless
// JavaScript allocation aborts with V8's "JavaScript heap out of memory", an
// endless Buffer allocation throws a RangeError. V8 is told a heap below it
// (node_heap.hpp, in sandbox_env), so that it collects its garbage before the
// limit instead of meeting it. The process limit is only set for a uid of the sandbox's own
// (is_root): otherwise it would count the server's processes too.
std::vector<std::string> prlimit_args(const Limits& limits, bool is_root) {
  auto both = [](std::uint64_t value) {
    return std::to_string(value) + ":" + std::to_string(value);
  };
  std::vector<std::string> args{
      "prlimit",
      "--cpu=" + std::to_string(limits.cpu_seconds) + ":" + std::to_string(limits.cpu_seconds + 1),
      "--data=" + both(limits.memory_mb * kMb), "--fsize=" + both(limits.max_file_mb * kMb),
      "--core=" + both(0)};
  if (is_root) args.push_back("--nproc=" + both(limits.max_procs));
  args.push_back("--");
  return args;
}

std::vector<std::string> setpriv_args(std::uint64_t uid) {
  const auto id = std::to_string(uid);
  return {"setpriv", "--reuid=" + id, "--regid=" + id, "--clear-groups", "--no-new-privs", "--"};
}

// bwrap creates a mount point's missing parents inside a tmpfs with mode
// 0700, which the sandbox uid could not pass through; create them 0755.
void add_mount_point_parents(std::vector<std::string>& args, const std::string& target,
                             const std::vector<std::string>& tmpfs_roots) {
  std::string root;
  for (const auto& candidate : tmpfs_roots) {
    if (target.rfind(candidate + "/", 0) == 0 && candidate.size() > root.size()) root = candidate;
  }
  if (root.empty()) return;
  std::vector<std::string> parents;
  for (auto folder = std::filesystem::path(target).parent_path(); folder.string() != root;
       folder = folder.parent_path()) {
    parents.push_back(folder.string());
  }
  for (auto it = parents.rbegin(); it != parents.rend(); ++it) {
    args.insert(args.end(), {"--perms", "0755", "--dir", *it});
  }
}

// The whole file system read-only; the work folder (at kSandboxWorkdir) the
// only writable place besides a small private /tmp; hidden paths covered by
// empty read-only folders. As root, bwrap mounts with full rights (it can
// reach a work folder inside the server's private data folder) and keeps only
// the capabilities setpriv needs to drop to the sandbox uid. Otherwise it
// runs in a user namespace, and the sandbox may not create further ones.
// /tmp holds two files of the largest size, so that one big file meets the
// file-size limit (SIGXFSZ, reported as such), not a /tmp that other files
// (a test's fixture, Jest's) already fill in part (ENOSPC, a plain failure).
constexpr std::uint64_t kTmpFilesOfMaxSize = 2;

std::vector<std::string> bwrap_args(const Options& options, bool is_root) {
  std::vector<std::string> tmpfs_roots{"/tmp"};
  for (const auto& hidden : options.hide) tmpfs_roots.push_back(hidden.string());
  std::vector<std::string> args{"bwrap",         "--unshare-net",     "--unshare-pid",
                                "--unshare-ipc", "--die-with-parent", "--new-session"};
  if (is_root) {
    args.insert(args.end(), {"--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"});
  } else {
    args.insert(args.end(), {"--unshare-user", "--disable-userns"});
  }
  args.insert(
      args.end(),
      {"--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--size",
       std::to_string(kTmpFilesOfMaxSize * options.limits.max_file_mb * kMb), "--tmpfs", "/tmp"});
  for (const auto& hidden : options.hide) args.insert(args.end(), {"--tmpfs", hidden.string()});
  for (const auto& folder : options.read_only) {
    add_mount_point_parents(args, folder.string(), tmpfs_roots);
  }
  for (const auto& folder : options.read_only) {
    args.insert(args.end(), {"--ro-bind", folder.string(), folder.string()});
  }
  for (const auto& hidden : options.hide)
    args.insert(args.end(), {"--remount-ro", hidden.string()});
  args.insert(args.end(), {"--bind", options.workdir.string(), kSandboxWorkdir, "--chdir",
                           kSandboxWorkdir, "--"});
  return args;
}

// A clean environment: nothing of the server's (keys, paths) leaks in. Node.js
// gets a heap below the memory limit (node_heap.hpp).
std::vector<std::string> sandbox_env(const std::string& home, const Limits& limits) {
  const char* path = std::getenv("PATH");
  return {std::string("PATH=") + (path ? path : "/usr/local/bin:/usr/bin:/bin"), "HOME=" + home,
          "TMPDIR=/tmp", "LANG=C.UTF-8", "NODE_OPTIONS=" + node_options(limits.memory_mb)};
}

}  // namespace

Command sandbox_command(const Options& options, Isolation isolation, bool is_root) {
  Command command;
  auto append = [&command](const std::vector<std::string>& args) {
    command.argv.insert(command.argv.end(), args.begin(), args.end());
  };
  append(prlimit_args(options.limits, is_root));
  if (isolation == Isolation::kBubblewrap) append(bwrap_args(options, is_root));
  if (isolation == Isolation::kUnshare) append({"unshare", "--net", "--"});
  if (is_root) append(setpriv_args(options.uid));
  append(options.command);
  command.env =
      sandbox_env(isolation == Isolation::kBubblewrap ? kSandboxWorkdir : options.workdir.string(),
                  options.limits);
  return command;
}

}  // namespace vouch::sandbox
