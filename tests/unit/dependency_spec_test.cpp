#include "events/dependency_spec.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "temp_folder.hpp"

namespace vouch::events {
namespace {

const std::vector<std::string> kRegistrySpecs = {"1.2.3",
                                                 "^1.2.0",
                                                 "~2",
                                                 "1.x",
                                                 "1.2.x",
                                                 "*",
                                                 "",
                                                 "latest",
                                                 "next",
                                                 "beta-2",
                                                 ">=1.0.0 <2",
                                                 ">= 1.2",
                                                 "<=3",
                                                 "1 || 2",
                                                 "^1.0.0 || ^2.0.0",
                                                 "1.0.0 - 2.0.0",
                                                 "v1.2.3",
                                                 "=1.2.3",
                                                 "1.2.3-beta.1",
                                                 "1.2.3+build.5",
                                                 "~>1.2",
                                                 "  ^1  ",
                                                 "X",
                                                 "1.2.3-rc.1+b",
                                                 "canary.1"};

// Each was accepted by the old check, or is something npm fetches from
// elsewhere or reads from the server's disk.
const std::vector<std::string> kRefused = {".",
                                           "..",
                                           "..tar",
                                           "evil.tgz",
                                           "latest.tar.gz",
                                           "x.tar",
                                           "./local",
                                           "../up",
                                           "/etc",
                                           "~/x",
                                           "file:../x",
                                           "file:.",
                                           "git+ssh://git@github.com/a/b.git",
                                           "github:user/repo",
                                           "user/repo",
                                           "https://evil.example/x.tgz",
                                           "http://x",
                                           "npm:other@1",
                                           "C:\\x",
                                           "1.2.3; rm -rf /",
                                           "^1.2.0\n",
                                           std::string(300, '1'),
                                           "-1",
                                           "1..2",
                                           "latest/../x",
                                           ".hidden"};

TEST(DependencySpecTest, AcceptsRegistryVersionsRangesAndTags) {
  for (const auto& spec : kRegistrySpecs) {
    EXPECT_EQ(invalid_dependency_spec(spec), std::nullopt) << "spec: " << spec;
  }
}

TEST(DependencySpecTest, RefusesPathsTarballsUrlsGitAndAliases) {
  for (const auto& spec : kRefused) {
    EXPECT_NE(invalid_dependency_spec(spec), std::nullopt) << "spec: " << spec;
  }
}

TEST(DependencySpecTest, PackageNames) {
  for (const auto* name : {"left-pad", "@scope/pkg", "a", "lodash.merge", "x_y"}) {
    EXPECT_EQ(invalid_package_name(name), std::nullopt) << name;
  }
  for (const auto* name :
       {"", ".", "..", "../x", "A", "@scope/", "a/b", "node_modules", " x", "x y", "@/x", "_x"}) {
    EXPECT_NE(invalid_package_name(name), std::nullopt) << name;
  }
}

// npm's own parser (npm-package-arg, as bundled with the installed npm) reads
// every spec accepted here as a registry spec, and each refused one that the
// old check let through as something else.
TEST(DependencySpecTest, NpmReadsEveryAcceptedSpecAsARegistrySpec) {
  boost::json::array pairs;
  for (const auto& spec : kRegistrySpecs) pairs.push_back(boost::json::array{"some-package", spec});
  for (const auto& spec : kRefused) pairs.push_back(boost::json::array{"some-package", spec});
  testing::TempFolder folder;
  const std::string input = (folder.path() / "specs.json").string();
  std::ofstream(input) << boost::json::serialize(pairs);
  const std::string command =
      "node " + std::string(VOUCH_SOURCE_DIR) + "/tests/unit/npa_types.js < " + input;
  FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char chunk[4096];
  while (auto n = std::fread(chunk, 1, sizeof chunk, pipe)) output.append(chunk, n);
  ASSERT_EQ(::pclose(pipe), 0) << output;
  const auto types = boost::json::parse(output).as_array();
  ASSERT_EQ(types.size(), pairs.size());
  const std::set<std::string> registry = {"version", "range", "tag"};
  for (std::size_t i = 0; i < kRegistrySpecs.size(); ++i) {
    EXPECT_TRUE(registry.count(std::string(types[i].as_string())))
        << kRegistrySpecs[i] << " is " << types[i];
  }
  // The specs the old check accepted are local files and folders to npm.
  for (const std::string spec : {".", "..", "..tar", "evil.tgz"}) {
    const auto at = kRegistrySpecs.size() +
                    (std::find(kRefused.begin(), kRefused.end(), spec) - kRefused.begin());
    EXPECT_FALSE(registry.count(std::string(types[at].as_string()))) << spec << " is " << types[at];
  }
}

}  // namespace
}  // namespace vouch::events
