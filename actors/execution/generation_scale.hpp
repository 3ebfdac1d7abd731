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
// runs Jest over a test file per source), one more budget per 10 of them or per
// 40 KiB of them (a big class is searched as long as several small modules),
// whichever is more, beyond the first, up to 3 times the configured ones (the
// rule's numbers: runner/src/generate/budget-scale.json, shared with the runner). The
// generator is told the configured budget (`baseBudgetMs`) and scales it
// again by the sources it tests, which the package model may make fewer (its own
// tests, type declarations, ES module twins skipped). On a busy machine the budget
// stretches (runner/src/generate/budget-clock.js) up to the scaled wall limit
// less kStretchMargin; verification, which the budget does not bound, then has
// kVerificationReserve more, and must answer by `deadline`.
struct GenerationPlan {
  double scale = 1;                       // of the configured budget and limits, from 1 to 3
  SandboxLimits limits;                   // of the generator's sandbox
  std::chrono::milliseconds budget;       // the generator's own time budget, at most
  std::chrono::milliseconds base_budget;  // the configured budget, which `budget` scales
  std::chrono::milliseconds stretch;      // the wall time the budget may stretch to
  std::chrono::milliseconds deadline;     // the wall time by which it must answer
};

inline constexpr std::chrono::milliseconds kStretchMargin{15'000};
inline constexpr std::chrono::milliseconds kVerificationReserve{30'000};

[[nodiscard]] GenerationPlan generation_plan(const RunnerSettings& settings,
                                             const std::vector<events::SourceFile>& files);

}  // namespace vouch::actors
