#include "store/read_memo.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace vouch::store {
namespace {

// Each answer weighs nothing beyond its key (one byte in these tests).
std::size_t weightless(const std::optional<int>&) { return 0; }

// A memo of `budget` bytes in front of a database whose reads answer 1, 2,
// 3, … in turn and are counted.
struct CountedMemo {
  explicit CountedMemo(std::size_t budget) : memo(budget) {}

  template <class Weight = decltype(&weightless)>
  base::Result<std::optional<int>> find(const std::string& key, Weight weight = &weightless) {
    return memo.find(
        key, [this]() -> base::Result<std::optional<int>> { return std::optional<int>{++reads}; },
        weight);
  }

  ReadMemo<std::optional<int>> memo;
  int reads = 0;
};

TEST(ReadMemo, KeepsAnAnswerUntilTheNextDrop) {
  CountedMemo counted(8);
  EXPECT_EQ(*counted.find("a"), 1);
  EXPECT_EQ(*counted.find("a"), 1);
  EXPECT_EQ(counted.reads, 1);
  counted.memo.drop();
  EXPECT_EQ(*counted.find("a"), 2);
}

TEST(ReadMemo, AnAnswerReadBeforeADropIsReturnedButNotKept) {
  CountedMemo counted(8);
  // The commit lands while this lookup reads the database.
  auto read_across_a_commit = [&]() -> base::Result<std::optional<int>> {
    counted.memo.drop();
    return std::optional<int>{++counted.reads};
  };
  EXPECT_EQ(*counted.memo.find("a", read_across_a_commit, weightless), 1);
  EXPECT_EQ(*counted.find("a"), 2);
}

TEST(ReadMemo, NothingFoundAndErrorsAreNotKept) {
  ReadMemo<std::optional<int>> memo(8);
  int reads = 0;
  auto nothing = [&]() -> base::Result<std::optional<int>> {
    ++reads;
    return std::optional<int>{};
  };
  EXPECT_FALSE(memo.find("guessed", nothing, weightless)->has_value());
  EXPECT_FALSE(memo.find("guessed", nothing, weightless)->has_value());
  EXPECT_EQ(reads, 2);
  auto failing = [&]() -> base::Result<std::optional<int>> {
    ++reads;
    return base::Error::internal("disk");
  };
  EXPECT_FALSE(memo.find("b", failing, weightless).ok());
  EXPECT_FALSE(memo.find("b", failing, weightless).ok());
  EXPECT_EQ(reads, 4);
}

// A budget of two bytes: two one-byte keys.
TEST(ReadMemo, AFullMemoStartsOver) {
  CountedMemo counted(2);
  EXPECT_TRUE(counted.find("a").ok());
  EXPECT_TRUE(counted.find("b").ok());
  EXPECT_TRUE(counted.find("c").ok());  // full: a and b are dropped, c is kept
  EXPECT_EQ(counted.reads, 3);
  EXPECT_TRUE(counted.find("c").ok());
  EXPECT_EQ(counted.reads, 3);
  EXPECT_TRUE(counted.find("a").ok());
  EXPECT_EQ(counted.reads, 4);
}

TEST(ReadMemo, AnAnswerHeavierThanTheBudgetIsNeverKept) {
  CountedMemo counted(100);
  auto heavy = [](const std::optional<int>&) -> std::size_t { return 1000; };
  EXPECT_TRUE(counted.find("big", heavy).ok());
  EXPECT_TRUE(counted.find("big", heavy).ok());
  EXPECT_EQ(counted.reads, 2);
}

}  // namespace
}  // namespace vouch::store
