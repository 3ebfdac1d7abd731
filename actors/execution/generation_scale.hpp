#pragma once

#include <chrono>
#include <vector>

#include "actors/execution/runner_settings.hpp"
#include "events/source_file.hpp"

namespace vouch::actors {

// The time one generation gets, from the configured budget and limits and the
// files it is for.
//
// A package takes longer than one module: the budget and the sandbox's CPU
// and wall limits grow with its JavaScript and TypeScript sources (verification
// runs Jest over a test file per source), one more budget per 10 of them beyond
// the first 10, up to 3 times the configured ones. On a busy machine the budget
// stretches (runner/src/generate/budget-clock.js) up to the scaled wall limit
// less kStretchMargin; verification, which the budget does not bound, then has
// kVerificationReserve more, and must answer by `deadline`.
struct GenerationPlan {
  SandboxLimits limits;                // of the generator's sandbox
  std::chrono::milliseconds budget;    // the generator's own time budget
  std::chrono::milliseconds stretch;   // the wall time the budget may stretch to
  std::chrono::milliseconds deadline;  // the wall time by which it must answer
};

inline constexpr std::chrono::milliseconds kStretchMargin{15'000};
inline constexpr std::chrono::milliseconds kVerificationReserve{30'000};

[[nodiscard]] GenerationPlan generation_plan(const RunnerSettings& settings,
                                             const std::vector<events::SourceFile>& files);

}  // namespace vouch::actors
