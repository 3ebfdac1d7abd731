// What vouchd keeps for runners between runs (runner_cache/): each project's
// Jest transforms, and V8's code cache of the runner's modules.
#include <gtest/gtest.h>

#include <fstream>

#include "runner_cache/runner_code_cache.hpp"
#include "runner_cache/transform_cache.hpp"
#include "temp_folder.hpp"
#include "test_files.hpp"

namespace vouch::runner_cache {
namespace {

namespace fs = std::filesystem;
using testing::read_file;
using testing::TempFolder;
using testing::write_file;

constexpr const char* kTransform = "jest-transform-cache-1f2e-3d4c/ab/index_ab12";

// A run's folder with the cache folder Jest left in it.
fs::path run_folder(const fs::path& root, const std::string& name) {
  const auto folder = root / name;
  write_file(folder / ".jest-cache" / kTransform, "checksum\nmodule.exports = 1;");
  write_file(folder / ".jest-cache" / "jest-transform-cache-1f2e-3d4c/ab/index_ab12.map", "{}");
  write_file(folder / ".jest-cache" / "haste-map-1f2e-77", "haste");
  write_file(folder / ".jest-cache" / "perf-cache-1f2e-88", "timings");
  return folder;
}

// A fresh run folder named `name`, with the cache of `scope` lent into it;
// returns its cache folder.
fs::path lent_to(TransformCache& cache, const fs::path& root, const std::string& name,
                 const std::string& scope) {
  const auto folder = root / name;
  fs::create_directories(folder);
  const auto lent = cache.lend(scope, folder / ".jest-cache");
  EXPECT_TRUE(lent) << lent.error().message;
  return folder / ".jest-cache";
}

TEST(TransformCache, LendsWhatARunTransformedToTheNextRunOfTheProject) {
  TempFolder temp;
  TransformCache cache(temp.path() / "cache");
  const auto first = run_folder(temp.path(), "run-1");
  auto kept = cache.keep("prj_a", first / ".jest-cache");
  ASSERT_TRUE(kept) << kept.error().message;
  EXPECT_EQ(*kept, 2u);

  const auto next = lent_to(cache, temp.path(), "run-2", "prj_a");
  EXPECT_EQ(read_file(next / kTransform), "checksum\nmodule.exports = 1;");
  EXPECT_TRUE(fs::exists(next / "jest-transform-cache-1f2e-3d4c/ab/index_ab12.map"));
  // Jest's haste map and timings are about one run's folder, not kept.
  EXPECT_FALSE(fs::exists(next / "haste-map-1f2e-77"));
  EXPECT_FALSE(fs::exists(next / "perf-cache-1f2e-88"));
  const auto stats = cache.stats();
  EXPECT_EQ(stats.scopes, 1u);
  EXPECT_EQ(stats.files_kept, 2u);
  EXPECT_EQ(stats.files_lent, 2u);
  EXPECT_EQ(stats.refused, 0u);
  EXPECT_GT(stats.bytes, 0u);
}

TEST(TransformCache, TakesOnlyWhatItDoesNotHoldYet) {
  TempFolder temp;
  TransformCache cache(temp.path() / "cache");
  ASSERT_TRUE(cache.keep("prj_a", run_folder(temp.path(), "run-1") / ".jest-cache"));
  const auto again = run_folder(temp.path(), "run-2");
  // What it holds is neither read nor rewritten: even a changed file stays as first kept.
  write_file(again / ".jest-cache" / kTransform, "planted");
  write_file(again / ".jest-cache" / "jest-transform-cache-1f2e-3d4c/cd/other_cd34", "other");
  auto kept = cache.keep("prj_a", again / ".jest-cache");
  ASSERT_TRUE(kept) << kept.error().message;
  EXPECT_EQ(*kept, 1u);
  const auto next = lent_to(cache, temp.path(), "run-3", "prj_a");
  EXPECT_EQ(read_file(next / kTransform), "checksum\nmodule.exports = 1;");
  EXPECT_EQ(read_file(next / "jest-transform-cache-1f2e-3d4c/cd/other_cd34"), "other");
}

TEST(TransformCache, NeverLendsOneProjectsTransformsToAnother) {
  TempFolder temp;
  TransformCache cache(temp.path() / "cache");
  ASSERT_TRUE(cache.keep("prj_a", run_folder(temp.path(), "run-1") / ".jest-cache"));
  EXPECT_FALSE(fs::exists(lent_to(cache, temp.path(), "run-2", "prj_b")));
}

TEST(TransformCache, RefusesALinkTheRunLeftAndKeepsNothingOfIt) {
  TempFolder temp;
  TransformCache cache(temp.path() / "cache");
  const auto run = temp.path() / "run-1";
  write_file(temp.path() / "secret", "server key");
  fs::create_directories(run / ".jest-cache" / "jest-transform-cache-1f2e/ab");
  fs::create_symlink(temp.path() / "secret",
                     run / ".jest-cache" / "jest-transform-cache-1f2e/ab/x");
  auto kept = cache.keep("prj_a", run / ".jest-cache");
  ASSERT_FALSE(kept);
  EXPECT_EQ(kept.error().code, base::ErrorCode::kInvalid);
  EXPECT_EQ(cache.stats().bytes, 0u);
  EXPECT_EQ(cache.stats().refused, 1u);
  // A linked cache folder is not entered either.
  fs::remove_all(run / ".jest-cache");
  fs::create_directory_symlink(temp.path() / "cache", run / ".jest-cache");
  EXPECT_FALSE(cache.keep("prj_a", run / ".jest-cache"));
}

TEST(TransformCache, AProjectPastItsLimitsStartsAgainAndTheLeastRecentlyLentGoFirst) {
  TempFolder temp;
  TransformCache::Limits limits;
  limits.max_bytes = 100;
  limits.max_total_bytes = 150;
  TransformCache cache(temp.path() / "cache", limits);
  const auto run_with = [&](const std::string& name, const std::string& file, std::size_t size) {
    const auto folder = temp.path() / name;
    write_file(folder / ".jest-cache" / "jest-transform-cache-1f/ab" / file,
               std::string(size, 'x'));
    return folder / ".jest-cache";
  };
  ASSERT_TRUE(cache.keep("prj_a", run_with("a1", "one", 60)));
  ASSERT_TRUE(cache.keep("prj_a", run_with("a2", "two", 60)));  // 120 > 100: "one" dropped
  EXPECT_EQ(cache.stats().bytes, 60u);
  ASSERT_TRUE(cache.keep("prj_b", run_with("b1", "three", 60)));
  const auto lent = lent_to(cache, temp.path(), "lent-a", "prj_a");  // a used after b
  EXPECT_FALSE(fs::exists(lent / "jest-transform-cache-1f/ab/one"));
  EXPECT_TRUE(fs::exists(lent / "jest-transform-cache-1f/ab/two"));
  ASSERT_TRUE(cache.keep("prj_c", run_with("c1", "four", 60)));  // 180 > 150: b goes
  EXPECT_EQ(cache.stats().bytes, 120u);
  EXPECT_EQ(cache.stats().scopes, 2u);
  EXPECT_FALSE(fs::exists(lent_to(cache, temp.path(), "lent-b", "prj_b")));
}

TEST(TransformCache, OnlyPlainProjectIdsNameAFolder) {
  TempFolder temp;
  TransformCache cache(temp.path() / "cache");
  const auto run = run_folder(temp.path(), "run-1");
  EXPECT_FALSE(cache.keep("../escape", run / ".jest-cache"));
  EXPECT_FALSE(cache.lend("", run / ".jest-cache"));
}

TEST(RunnerCodeCache, LendsTheFirstCacheKeptForAMajor) {
  TempFolder temp;
  RunnerCodeCache cache(temp.path() / "cache");
  EXPECT_FALSE(cache.holds("20"));
  const auto nothing = cache.lend("20", temp.path() / "unprimed" / ".vouch-code-cache");
  ASSERT_TRUE(nothing);
  EXPECT_FALSE(*nothing);
  EXPECT_FALSE(fs::exists(temp.path() / "unprimed" / ".vouch-code-cache"));

  write_file(temp.path() / "primed" / ".vouch-code-cache", "compiled by the first runner");
  ASSERT_TRUE(cache.keep("20", temp.path() / "primed" / ".vouch-code-cache"));
  write_file(temp.path() / "later" / ".vouch-code-cache", "compiled by a later one");
  ASSERT_TRUE(cache.keep("20", temp.path() / "later" / ".vouch-code-cache"));
  EXPECT_TRUE(cache.holds("20"));
  EXPECT_FALSE(cache.holds("22"));

  fs::create_directories(temp.path() / "unprimed");
  const auto lent = cache.lend("20", temp.path() / "unprimed" / ".vouch-code-cache");
  ASSERT_TRUE(lent);
  EXPECT_TRUE(*lent);
  EXPECT_EQ(read_file(temp.path() / "unprimed" / ".vouch-code-cache"),
            "compiled by the first runner");
  EXPECT_EQ(cache.stats().lent, 1u);
  EXPECT_EQ(cache.stats().bytes, std::string("compiled by the first runner").size());
}

TEST(RunnerCodeCache, RefusesWhatIsNoCacheFile) {
  TempFolder temp;
  RunnerCodeCache cache(temp.path() / "cache");
  const auto runner = temp.path() / "runner";
  fs::create_directories(runner);
  write_file(temp.path() / "secret", "the server's own file");
  fs::create_symlink(temp.path() / "secret", runner / "linked");
  fs::create_directories(runner / "folder");
  write_file(runner / "cache", "compiled");

  EXPECT_FALSE(cache.keep("20", runner / "linked"));
  EXPECT_FALSE(cache.keep("20", runner / "folder"));
  EXPECT_FALSE(cache.keep("20", runner / "missing"));
  EXPECT_FALSE(cache.keep("../20", runner / "cache"));
  EXPECT_FALSE(cache.keep("", runner / "cache"));
  EXPECT_FALSE(cache.holds("20"));

  std::ofstream(runner / "huge", std::ios::binary).close();
  fs::resize_file(runner / "huge", RunnerCodeCache::kMaxBytes + 1);
  const auto huge = cache.keep("20", runner / "huge");
  ASSERT_FALSE(huge);
  EXPECT_NE(huge.error().message.find("larger than allowed"), std::string::npos)
      << huge.error().message;
  EXPECT_FALSE(cache.holds("20"));
}

TEST(RunnerCodeCache, StartsEmptyAfterARestart) {
  TempFolder temp;
  write_file(temp.path() / "runner" / "cache", "compiled");
  {
    RunnerCodeCache cache(temp.path() / "cache");
    ASSERT_TRUE(cache.keep("20", temp.path() / "runner" / "cache"));
  }
  RunnerCodeCache cache(temp.path() / "cache");
  EXPECT_FALSE(cache.holds("20"));
  EXPECT_TRUE(fs::is_empty(temp.path() / "cache"));
}

}  // namespace
}  // namespace vouch::runner_cache
