#include "events/ids.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <string>
#include <thread>

#include "events/clock.hpp"

namespace vouch::events {
namespace {

TEST(Ids, RandomIdsHaveThePrefixAnd24HexDigits) {
  const auto id = new_id(kProjectIdPrefix);
  ASSERT_EQ(id.size(), kProjectIdPrefix.size() + 24);
  EXPECT_EQ(id.substr(0, 4), "prj_");
  EXPECT_TRUE(looks_like_id(id, kProjectIdPrefix));
  EXPECT_NE(new_id(kProjectIdPrefix), id);
}

TEST(Ids, TimeOrderedIdsStartWithTheMillisecondTheyWereMadeIn) {
  const auto before = now_millis();
  const auto id = new_time_ordered_id(kEventIdPrefix);
  const auto after = now_millis();
  ASSERT_EQ(id.size(), kEventIdPrefix.size() + 28);
  EXPECT_TRUE(looks_like_id(id, kEventIdPrefix));
  const auto millis = static_cast<Millis>(std::stoull(id.substr(4, 12), nullptr, 16));
  EXPECT_GE(millis, before);
  EXPECT_LE(millis, after);
}

TEST(Ids, TimeOrderedIdsSortInTheOrderTheyWereMadeAcrossMilliseconds) {
  const auto first = new_time_ordered_id(kDeliveryIdPrefix);
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  const auto second = new_time_ordered_id(kDeliveryIdPrefix);
  EXPECT_LT(first, second);
}

TEST(Ids, TimeOrderedIdsMadeInOneMillisecondDifferInTheirRandomPart) {
  std::set<std::string> ids;
  for (int i = 0; i < 10'000; ++i) ids.insert(new_time_ordered_id(kEventIdPrefix));
  EXPECT_EQ(ids.size(), 10'000u);
}

}  // namespace
}  // namespace vouch::events
