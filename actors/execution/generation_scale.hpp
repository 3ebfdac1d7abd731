#pragma once

#include <vector>

#include "actors/execution/runner_settings.hpp"
#include "events/source_file.hpp"

namespace vouch::actors {

// A package takes longer to generate for than one module: its budget and its
// sandbox's CPU and wall limits grow with its JavaScript and TypeScript
// sources (verification runs Jest over a test file per source), one more
// budget per 10 of them beyond the first 10, up to 3 times the configured
// ones.
[[nodiscard]] double generation_scale(const std::vector<events::SourceFile>& files);

// `limits` with CPU and wall time multiplied by `scale`.
[[nodiscard]] SandboxLimits scaled_limits(const SandboxLimits& limits, double scale);

}  // namespace vouch::actors
