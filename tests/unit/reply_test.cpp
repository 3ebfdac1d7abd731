// Numbers as the API writes them: integral values as integers, everything
// else (fractions, values beyond int64, NaN, infinities) as doubles, with no
// cast out of range on the way (UBSan checks this in the sanitizer build).
#include "http/reply.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace vouch::http {
namespace {

TEST(JsonNumber, IntegralValuesAreIntegers) {
  EXPECT_EQ(boost::json::serialize(json_number(80.0)), "80");
  EXPECT_EQ(boost::json::serialize(json_number(-3.0)), "-3");
  EXPECT_EQ(boost::json::serialize(json_number(0.0)), "0");
}

TEST(JsonNumber, OtherValuesStayDoubles) {
  EXPECT_TRUE(json_number(72.5).is_double());
  EXPECT_TRUE(json_number(1e300).is_double());
  EXPECT_TRUE(json_number(-1e19).is_double());
  EXPECT_TRUE(json_number(std::numeric_limits<double>::infinity()).is_double());
  EXPECT_TRUE(json_number(std::numeric_limits<double>::quiet_NaN()).is_double());
}

}  // namespace
}  // namespace vouch::http
