#include "base/ids.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <string>
#include <thread>

#include "base/clock.hpp"

namespace vouch::events {
namespace {

TEST(Ids, RandomIdsHaveThePrefixAnd24HexDigits) {
  const auto id = base::new_id(base::kProjectIdPrefix);
  ASSERT_EQ(id.size(), base::kProjectIdPrefix.size() + 24);
  EXPECT_EQ(id.substr(0, 4), "prj_");
  EXPECT_TRUE(base::looks_like_id(id, base::kProjectIdPrefix));
  EXPECT_NE(base::new_id(base::kProjectIdPrefix), id);
}

TEST(Ids, TimeOrderedIdsStartWithTheMillisecondTheyWereMadeIn) {
  const auto before = base::now_millis();
  const auto id = base::new_time_ordered_id(base::kEventIdPrefix);
  const auto after = base::now_millis();
  ASSERT_EQ(id.size(), base::kEventIdPrefix.size() + 28);
  EXPECT_TRUE(base::looks_like_id(id, base::kEventIdPrefix));
  const auto millis = static_cast<base::Millis>(std::stoull(id.substr(4, 12), nullptr, 16));
  EXPECT_GE(millis, before);
  EXPECT_LE(millis, after);
}

TEST(Ids, TimeOrderedIdsSortInTheOrderTheyWereMadeAcrossMilliseconds) {
  const auto first = base::new_time_ordered_id(base::kDeliveryIdPrefix);
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  const auto second = base::new_time_ordered_id(base::kDeliveryIdPrefix);
  EXPECT_LT(first, second);
}

TEST(Ids, TimeOrderedIdsMadeInOneMillisecondDifferInTheirRandomPart) {
  std::set<std::string> ids;
  for (int i = 0; i < 10'000; ++i) ids.insert(base::new_time_ordered_id(base::kEventIdPrefix));
  EXPECT_EQ(ids.size(), 10'000u);
}

}  // namespace
}  // namespace vouch::events
