#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "process/sandbox/options.hpp"

namespace vouch::sandbox {

// Where the work folder appears inside bubblewrap, whatever its path outside:
// every run sees the same path, so what Jest derives from it (the keys of its
// transform cache, the paths in the coverage report) is the same for the same
// files, and the server's own paths stay out of sight. Below the private /tmp,
// because the rest of the file system is read-only.
inline constexpr const char* kSandboxWorkdir = "/tmp/vouch-work";

// A program, its arguments (argv[0] included) and its whole environment.
struct Command {
  std::vector<std::string> argv;
  std::vector<std::string> env;
};

// What runs `options.command` in the sandbox:
//
//   prlimit LIMITS -- [bwrap NAMESPACES MOUNTS -- | unshare -n --] [setpriv UID --] COMMAND
//
// prlimit sets the resource limits, which every process below inherits.
// bwrap (or `unshare -n`) isolates. setpriv, used when the launcher is root,
// drops to an unprivileged uid of the sandbox's own: root is exempt from the
// process limit (RLIMIT_NPROC counts per uid), and that uid owns nothing
// outside the work folder. `isolation` is the one in effect (not kAuto);
// options.isolation is not read.
Command sandbox_command(const Options& options, Isolation isolation, bool is_root);

}  // namespace vouch::sandbox
