#include "actors/execution/generation_scale.hpp"

#include <algorithm>

namespace vouch::actors {
namespace {

constexpr double kSourcesPerBudget = 10;
constexpr double kMaxGenerationScale = 3;

}  // namespace

double generation_scale(const std::vector<events::SourceFile>& files) {
  const auto sources = std::count_if(files.begin(), files.end(), [](const auto& file) {
    return events::is_javascript_path(file.path);
  });
  return std::clamp(static_cast<double>(sources) / kSourcesPerBudget, 1.0, kMaxGenerationScale);
}

SandboxLimits scaled_limits(const SandboxLimits& limits, double scale) {
  auto scaled = limits;
  scaled.cpu_seconds = static_cast<unsigned>(limits.cpu_seconds * scale);
  scaled.wall_ms = static_cast<unsigned>(limits.wall_ms * scale);
  return scaled;
}

}  // namespace vouch::actors
