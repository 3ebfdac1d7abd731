#pragma once

#include <cstddef>
#include <vector>

#include "actors/execution/runner_settings.hpp"
#include "events/source_file.hpp"

namespace vouch::actors {

// A package takes longer to generate for than one module: its budget and its
// sandbox's CPU and wall limits grow with its JavaScript and TypeScript
// sources, one more budget per kSourcesPerBudget of them, up to
// kMaxGenerationScale times the configured ones (which the runner states in
// the summary as the budget it had).
inline constexpr std::size_t kSourcesPerBudget = 40;
inline constexpr double kMaxGenerationScale = 2.5;

// From 1 to kMaxGenerationScale.
[[nodiscard]] double generation_scale(const std::vector<events::SourceFile>& files);

// `limits` with CPU and wall time multiplied by `scale`.
[[nodiscard]] SandboxLimits scaled_limits(const SandboxLimits& limits, double scale);

}  // namespace vouch::actors
