#include "http/router.hpp"

#include <gtest/gtest.h>

namespace vouch::http {
namespace {

Router routes() {
  Router router;
  for (const char* pattern : {"/v1/tests/results/{id}", "/v1/tests/results/{id}/coverage",
                              "/v1/tests/results/{id}/coverage/html/{path*}"}) {
    router.add({"GET", pattern, "", false, nullptr});
  }
  return router;
}

TEST(Router, BracedSegmentsMatchOneSegment) {
  const auto router = routes();
  auto match = router.match("GET", "/v1/tests/results/run_1");
  ASSERT_TRUE(match && match->route);
  EXPECT_EQ(match->route->pattern, "/v1/tests/results/{id}");
  EXPECT_EQ(match->params.at("id"), "run_1");
  EXPECT_FALSE(router.match("GET", "/v1/tests/results/"));
}

TEST(Router, ARestSegmentMatchesTheRemainingPath) {
  const auto router = routes();
  auto match = router.match("GET", "/v1/tests/results/run_1/coverage/html/src/a.js.html");
  ASSERT_TRUE(match && match->route);
  EXPECT_EQ(match->params.at("id"), "run_1");
  EXPECT_EQ(match->params.at("path"), "src/a.js.html");
  match = router.match("GET", "/v1/tests/results/run_1/coverage/html/index.html");
  ASSERT_TRUE(match && match->route);
  EXPECT_EQ(match->params.at("path"), "index.html");
  for (const char* path :
       {"/v1/tests/results/run_1/coverage/html", "/v1/tests/results/run_1/coverage/html/",
        "/v1/tests/results/run_1/coverage/html/a//b", "/v1/tests/results/run_1/coverage/html/a/"}) {
    EXPECT_FALSE(router.match("GET", path)) << path;
  }
}

TEST(Router, AnotherMethodListsTheAllowedOnes) {
  const auto router = routes();
  auto match = router.match("POST", "/v1/tests/results/run_1/coverage");
  ASSERT_TRUE(match);
  EXPECT_EQ(match->route, nullptr);
  EXPECT_EQ(match->allowed, "GET");
}

}  // namespace
}  // namespace vouch::http
