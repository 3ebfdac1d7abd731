#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "actors/execution/runner_protocol.hpp"
#include "base/result.hpp"
#include "events/run.hpp"
#include "process/child_process.hpp"

namespace vouch::actors {

// A runner process that has loaded Jest and said it is ready, waiting in its
// own sandbox and work folder for exactly one run.
struct WarmRunner {
  std::shared_ptr<process::ChildProcess> process;
  std::filesystem::path workdir;
  std::string node_major;
};

// How starting a runner went: the runner, or why it did not get ready.
struct RunnerStart {
  std::optional<WarmRunner> runner;
  std::string error;
};

// What the generator's process came to.
struct GenerationOutcome {
  base::Result<GenerationOutput> output{base::Error::internal("no outcome")};
};

// Where a run's dependencies are: the node_modules folder ("" without
// dependencies), or why they could not be installed.
struct InstallOutcome {
  std::string node_path;
  std::optional<events::RunError> error;
};

}  // namespace vouch::actors
