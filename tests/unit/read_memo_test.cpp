#include "store/read_memo.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace vouch::store {
namespace {

TEST(ReadMemo, KeepsAnAnswerUntilTheNextDrop) {
  ReadMemo<std::optional<int>> memo(8);
  int reads = 0;
  auto read = [&]() -> events::Result<std::optional<int>> { return std::optional<int>{++reads}; };
  EXPECT_EQ(*memo.find("a", read), 1);
  EXPECT_EQ(*memo.find("a", read), 1);
  EXPECT_EQ(reads, 1);
  memo.drop();
  EXPECT_EQ(*memo.find("a", read), 2);
}

TEST(ReadMemo, AnAnswerReadBeforeADropIsReturnedButNotKept) {
  ReadMemo<std::optional<int>> memo(8);
  int reads = 0;
  // The commit lands while this lookup reads the database.
  auto read_across_a_commit = [&]() -> events::Result<std::optional<int>> {
    memo.drop();
    return std::optional<int>{++reads};
  };
  EXPECT_EQ(*memo.find("a", read_across_a_commit), 1);
  auto read = [&]() -> events::Result<std::optional<int>> { return std::optional<int>{++reads}; };
  EXPECT_EQ(*memo.find("a", read), 2);
}

TEST(ReadMemo, NothingFoundAndErrorsAreNotKept) {
  ReadMemo<std::optional<int>> memo(8);
  int reads = 0;
  auto nothing = [&]() -> events::Result<std::optional<int>> {
    ++reads;
    return std::optional<int>{};
  };
  EXPECT_FALSE(memo.find("guessed", nothing)->has_value());
  EXPECT_FALSE(memo.find("guessed", nothing)->has_value());
  EXPECT_EQ(reads, 2);
  auto failing = [&]() -> events::Result<std::optional<int>> {
    ++reads;
    return events::Error::internal("disk");
  };
  EXPECT_FALSE(memo.find("b", failing).ok());
  EXPECT_FALSE(memo.find("b", failing).ok());
  EXPECT_EQ(reads, 4);
}

TEST(ReadMemo, AFullMemoStartsOver) {
  ReadMemo<std::optional<int>> memo(2);
  int reads = 0;
  auto read = [&]() -> events::Result<std::optional<int>> { return std::optional<int>{++reads}; };
  EXPECT_TRUE(memo.find("a", read).ok());
  EXPECT_TRUE(memo.find("b", read).ok());
  EXPECT_TRUE(memo.find("c", read).ok());  // full: a and b are dropped, c is kept
  EXPECT_EQ(reads, 3);
  EXPECT_TRUE(memo.find("c", read).ok());
  EXPECT_EQ(reads, 3);
  EXPECT_TRUE(memo.find("a", read).ok());
  EXPECT_EQ(reads, 4);
}

}  // namespace
}  // namespace vouch::store
