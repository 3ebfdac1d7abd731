#include "events/package_dependencies.hpp"

#include <gtest/gtest.h>

namespace vouch::events {
namespace {

using Dependencies = std::vector<std::pair<std::string, std::string>>;

TEST(PackageDependencies, AnObjectIsReadAsItStandsWithOptionalDependenciesAfter) {
  EXPECT_EQ(normalized_dependencies(
                R"({"dependencies":{"a":"^1.0.0","b":"2"},"optionalDependencies":{"c":"*"}})"),
            (Dependencies{{"a", "^1.0.0"}, {"b", "2"}, {"c", "*"}}));
}

TEST(PackageDependencies, LegacyArraysAndStringsAreNormalizedAsNpmDoes) {
  EXPECT_TRUE(normalized_dependencies(R"({"dependencies":[]})").empty());
  EXPECT_EQ(normalized_dependencies(R"({"dependencies":["a@^1.2", "b", "@s/c@2", "d >=3"]})"),
            (Dependencies{{"a", "^1.2"}, {"b", ""}, {"@s/c", "2"}, {"d", ">=3"}}));
  EXPECT_EQ(normalized_dependencies(R"({"dependencies":"a@1, b\nc@~2"})"),
            (Dependencies{{"a", "1"}, {"b", ""}, {"c", "~2"}}));
}

TEST(PackageDependencies, EntriesNpmDropsAndTextsThatAreNoPackageHaveNone) {
  EXPECT_EQ(normalized_dependencies(R"({"dependencies":{"a":1,"b":"1.0.0","c":null}})"),
            (Dependencies{{"b", "1.0.0"}}));
  EXPECT_TRUE(normalized_dependencies("not json").empty());
  EXPECT_TRUE(normalized_dependencies("[1,2]").empty());
  EXPECT_TRUE(normalized_dependencies(R"({"dependencies":7})").empty());
}

}  // namespace
}  // namespace vouch::events
