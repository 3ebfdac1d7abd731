#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "actors/execution/runner_settings.hpp"
#include "base/result.hpp"

namespace vouch::app {

struct RunnerOptions {
  std::filesystem::path runner_dir;                // runner/ of this build
  std::vector<std::filesystem::path> extra_nodes;  // --node: more Node.js binaries
  std::size_t generator_slots = 2;
  std::size_t executor_slots = 2;
  std::size_t warm_runners = 2;
  unsigned generation_queue_ms = 10'000;  // a generation waits this long for a slot, then 503
  actors::SandboxLimits run_limits;       // of each test run
  // Serve even where the sandbox has no isolation (no bubblewrap, no
  // unshare): tested code then runs with the server's own view of the
  // machine and the network. Off by default: vouchd refuses to start.
  bool allow_unsandboxed = false;
};

// Settings for the runners of a server on `data`: the Node.js binaries found
// (`node` and `npm` on PATH, plus `extra_nodes`) by major version, folders for
// work and dependencies inside `data` (which the sandbox hides), and the
// isolation the sandbox has on this machine (`vouch-sandbox --probe`), which is
// logged. kInvalid when the runner or Node.js cannot be found, or when the
// sandbox has no isolation and `allow_unsandboxed` is off.
base::Result<actors::RunnerSettings> prepare_runner(const std::filesystem::path& data,
                                                    const RunnerOptions& options);

// The executable `program` in a folder of PATH, resolved to its real path;
// nullopt when none is.
std::optional<std::filesystem::path> on_path(std::string_view program);

}  // namespace vouch::app
