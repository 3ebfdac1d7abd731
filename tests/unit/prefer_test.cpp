#include "http/prefer.hpp"

#include <gtest/gtest.h>

namespace vouch::http {
namespace {

using std::chrono::seconds;

TEST(PreferredWait, ReadsTheWaitPreference) {
  EXPECT_EQ(preferred_wait("wait=20"), seconds(20));
  EXPECT_EQ(preferred_wait("respond-async, wait=5"), seconds(5));
  EXPECT_EQ(preferred_wait("WAIT = 7 ; foo=bar, return=minimal"), seconds(7));
  EXPECT_EQ(preferred_wait("wait=\"3\""), seconds(3));
  EXPECT_EQ(preferred_wait("wait=0"), seconds(0));
}

TEST(PreferredWait, IgnoresWhatIsNotAWaitInSeconds) {
  EXPECT_EQ(preferred_wait(""), std::nullopt);
  EXPECT_EQ(preferred_wait("respond-async"), std::nullopt);
  EXPECT_EQ(preferred_wait("wait"), std::nullopt);
  EXPECT_EQ(preferred_wait("wait="), std::nullopt);
  EXPECT_EQ(preferred_wait("wait=-1"), std::nullopt);
  EXPECT_EQ(preferred_wait("wait=1.5"), std::nullopt);
  EXPECT_EQ(preferred_wait("wait=soon"), std::nullopt);
  EXPECT_EQ(preferred_wait("wait=99999999999"), std::nullopt);
  EXPECT_EQ(preferred_wait("waiting=5"), std::nullopt);
}

TEST(PrefersRespondAsync, FindsThePreferenceAmongOthersInAnyCase) {
  EXPECT_TRUE(prefers_respond_async("respond-async"));
  EXPECT_TRUE(prefers_respond_async("wait=5, Respond-Async"));
  EXPECT_TRUE(prefers_respond_async(" respond-async ; foo=bar"));
  EXPECT_FALSE(prefers_respond_async(""));
  EXPECT_FALSE(prefers_respond_async("wait=5"));
  EXPECT_FALSE(prefers_respond_async("respond-asynchronously"));
  EXPECT_FALSE(prefers_respond_async("return=respond-async"));
}

}  // namespace
}  // namespace vouch::http
