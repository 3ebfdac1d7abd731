#include "runner_cache/runner_code_cache.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "temp_folder.hpp"
#include "test_files.hpp"

namespace vouch::runner_cache {
namespace {

namespace fs = std::filesystem;
using testing::read_file;
using testing::TempFolder;
using testing::write_file;

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
