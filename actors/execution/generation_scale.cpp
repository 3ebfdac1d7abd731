#include "actors/execution/generation_scale.hpp"

#include <algorithm>

namespace vouch::actors {
namespace {

// The scaling rule is the runner's runner/src/generate/budget-scale.json, which
// CMakeLists.txt reads into these definitions, so that both sides apply one rule.
constexpr double kSourcesPerBudget = VOUCH_SOURCES_PER_BUDGET;
constexpr double kSourceBytesPerBudget = VOUCH_SOURCE_BYTES_PER_BUDGET;
constexpr double kMaxGenerationScale = VOUCH_MAX_GENERATION_SCALE;
// Time the generator's answer needs after verification has ended.
constexpr std::chrono::milliseconds kAnswerMargin{5'000};

double generation_scale(const std::vector<events::SourceFile>& files) {
  double sources = 0;
  double bytes = 0;
  for (const auto& file : files) {
    if (!events::is_javascript_path(file.path)) continue;
    sources += 1;
    bytes += static_cast<double>(file.content.size());
  }
  return std::clamp(std::max(sources / kSourcesPerBudget, bytes / kSourceBytesPerBudget), 1.0,
                    kMaxGenerationScale);
}

}  // namespace

GenerationPlan generation_plan(const RunnerSettings& settings,
                               const std::vector<events::SourceFile>& files) {
  using std::chrono::milliseconds;
  const auto scale = generation_scale(files);
  GenerationPlan plan{scale,           settings.generation_limits,
                      milliseconds(0), settings.generation_budget,
                      milliseconds(0), milliseconds(0)};
  plan.budget = milliseconds(
      static_cast<std::int64_t>(static_cast<double>(settings.generation_budget.count()) * scale));
  const auto scaled_wall = milliseconds(
      static_cast<std::int64_t>(static_cast<double>(settings.generation_limits.wall_ms) * scale));
  // With a wall limit below the margin the budget does not stretch at all.
  plan.stretch = std::max(milliseconds(1), scaled_wall - kStretchMargin);
  plan.limits.wall_ms = static_cast<unsigned>((scaled_wall + kVerificationReserve).count());
  plan.limits.cpu_seconds =
      static_cast<unsigned>(settings.generation_limits.cpu_seconds * scale) +
      static_cast<unsigned>(
          std::chrono::duration_cast<std::chrono::seconds>(kVerificationReserve).count());
  plan.deadline = milliseconds(plan.limits.wall_ms) - kAnswerMargin;
  return plan;
}

}  // namespace vouch::actors
