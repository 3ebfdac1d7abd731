#include "actors/execution/generation_scale.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "actors/execution/runner_protocol.hpp"

namespace vouch::actors {
namespace {

using std::chrono::milliseconds;

std::vector<events::SourceFile> sources(int count, std::size_t bytes_each) {
  std::vector<events::SourceFile> files;
  for (int i = 0; i < count; ++i) {
    files.push_back({"lib/m" + std::to_string(i) + ".js", std::string(bytes_each, 'x')});
  }
  return files;
}

TEST(GenerationPlan, OneSmallModuleGetsTheConfiguredBudget) {
  const RunnerSettings settings;
  const auto plan = generation_plan(settings, sources(1, 2'000));
  EXPECT_EQ(plan.scale, 1);
  EXPECT_EQ(plan.budget, settings.generation_budget);
}

TEST(GenerationPlan, GrowsWithTheCountOfSources) {
  const auto plan = generation_plan(RunnerSettings{}, sources(25, 1'000));
  EXPECT_DOUBLE_EQ(plan.scale, 2.5);
  EXPECT_EQ(plan.budget, milliseconds(50'000));
}

TEST(GenerationPlan, GrowsWithTheSizeOfFewBigSources) {
  // Three files, one a big class: the size counts, not only the three.
  auto files = sources(2, 4 * 1024);
  files.push_back({"lib/command.js", std::string(72 * 1024, 'x')});
  const auto plan = generation_plan(RunnerSettings{}, files);
  EXPECT_DOUBLE_EQ(plan.scale, 2);
  EXPECT_EQ(plan.budget, milliseconds(40'000));
  EXPECT_EQ(plan.limits.wall_ms, 2 * RunnerSettings{}.generation_limits.wall_ms + 30'000);
}

TEST(GenerationPlan, DataAndDeclarationsDoNotCountAndTheScaleStopsAtThree) {
  auto files = sources(1, 1'000);
  files.push_back({"data.json", std::string(400 * 1024, 'x')});
  files.push_back({"index.d.ts", std::string(400 * 1024, 'x')});
  EXPECT_EQ(generation_plan(RunnerSettings{}, files).scale, 1);
  EXPECT_EQ(generation_plan(RunnerSettings{}, sources(600, 1'000)).scale, 3);
}

TEST(GenerationPlan, StatesTheConfiguredBudgetItScaled) {
  const RunnerSettings settings;
  const auto plan = generation_plan(settings, sources(25, 1'000));
  EXPECT_EQ(plan.base_budget, settings.generation_budget);
  GenerationJob job{{{"a.js", "exports.f = 1;"}},
                    "jest",
                    80,
                    plan.budget,
                    std::nullopt,
                    plan.stretch,
                    plan.deadline,
                    plan.base_budget};
  EXPECT_NE(generation_job_line(job).find(R"("timeBudgetMs":50000)"), std::string::npos);
  EXPECT_NE(generation_job_line(job).find(R"("baseBudgetMs":20000)"), std::string::npos);
}

}  // namespace
}  // namespace vouch::actors
