#include "store/read_memo.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace vouch::store {
namespace {

// Each answer weighs nothing beyond its key (one byte in these tests).
std::size_t weightless(const std::optional<int>&) { return 0; }

TEST(ReadMemo, KeepsAnAnswerUntilTheNextDrop) {
  ReadMemo<std::optional<int>> memo(8);
  int reads = 0;
  auto read = [&]() -> base::Result<std::optional<int>> { return std::optional<int>{++reads}; };
  EXPECT_EQ(*memo.find("a", read, weightless), 1);
  EXPECT_EQ(*memo.find("a", read, weightless), 1);
  EXPECT_EQ(reads, 1);
  memo.drop();
  EXPECT_EQ(*memo.find("a", read, weightless), 2);
}

TEST(ReadMemo, AnAnswerReadBeforeADropIsReturnedButNotKept) {
  ReadMemo<std::optional<int>> memo(8);
  int reads = 0;
  // The commit lands while this lookup reads the database.
  auto read_across_a_commit = [&]() -> base::Result<std::optional<int>> {
    memo.drop();
    return std::optional<int>{++reads};
  };
  EXPECT_EQ(*memo.find("a", read_across_a_commit, weightless), 1);
  auto read = [&]() -> base::Result<std::optional<int>> { return std::optional<int>{++reads}; };
  EXPECT_EQ(*memo.find("a", read, weightless), 2);
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
  ReadMemo<std::optional<int>> memo(2);
  int reads = 0;
  auto read = [&]() -> base::Result<std::optional<int>> { return std::optional<int>{++reads}; };
  EXPECT_TRUE(memo.find("a", read, weightless).ok());
  EXPECT_TRUE(memo.find("b", read, weightless).ok());
  EXPECT_TRUE(memo.find("c", read, weightless).ok());  // full: a and b are dropped, c is kept
  EXPECT_EQ(reads, 3);
  EXPECT_TRUE(memo.find("c", read, weightless).ok());
  EXPECT_EQ(reads, 3);
  EXPECT_TRUE(memo.find("a", read, weightless).ok());
  EXPECT_EQ(reads, 4);
}

TEST(ReadMemo, AnAnswerHeavierThanTheBudgetIsNeverKept) {
  ReadMemo<std::optional<int>> memo(100);
  int reads = 0;
  auto read = [&]() -> base::Result<std::optional<int>> { return std::optional<int>{++reads}; };
  auto heavy = [](const std::optional<int>&) -> std::size_t { return 1000; };
  EXPECT_TRUE(memo.find("big", read, heavy).ok());
  EXPECT_TRUE(memo.find("big", read, heavy).ok());
  EXPECT_EQ(reads, 2);
}

}  // namespace
}  // namespace vouch::store
