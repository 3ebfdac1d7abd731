// Whole packages as users submit them (issue 26): each test imports a small
// package written for it as an `npm pack` tarball (files under package/),
// generates from the snapshot and runs the suite, all through the API. The
// package is read as npm reads it; its own tests, type tests and ES module
// twins are skipped with a reason, a CLI is tested as a program, and a large
// package gets tests without a file-count refusal.
#include <functional>
#include <set>

#include "../unit/tar_builder.hpp"
#include "runner_fixture.hpp"

namespace vouch::testing {
namespace {

class GeneratePackageShapesTest : public RunnerTest {
 protected:
  void SetUp() override {
    start();
    project_ = create_project(0);
  }

  // Imports `files` as npm pack lays them out, then generates from the snapshot.
  boost::json::object import_and_generate(const Files& files) {
    std::vector<TarEntry> entries;
    for (const auto& [path, content] : files) entries.push_back({"package/" + path, content});
    HttpRequest request;
    request.method = "POST";
    request.target = "/v1/projects/" + project_ + "/import";
    request.key = VouchdProcess::kAdminKey;
    request.body = make_tar(entries);
    request.content_type = "application/gzip";
    auto imported = send(server_->port(), request);
    EXPECT_EQ(imported.status, 201u) << imported.body;
    auto response = call("POST", "/v1/tests/generate", VouchdProcess::kAdminKey,
                         R"({"projectId":")" + project_ + R"("})");
    EXPECT_EQ(response.status, 201u) << response.body;
    if (response.status != 201u) return {};
    return json(response);
  }

  static std::string reason_skipped(boost::json::object& test, const std::string& path) {
    for (const auto& entry : test["summary"].at("skipped").as_array()) {
      if (entry.at("path") == path.c_str()) return std::string(entry.at("reason").as_string());
    }
    return {};
  }

  // The function of a large package's i-th module: `(n) => (n > i ? 'after' : 'until i')`.
  static std::string step_function(int i) {
    const auto at = std::to_string(i);
    return "(n) => (n > " + at + " ? 'after' : 'until " + at + "')";
  }

  // A package named `name` of `count` modules, the i-th at path_of(i) exporting step_function(i),
  // whose `main` requires the modules i with i % every == first.
  static Files package_of_steps(const std::string& name, const std::string& main, int count,
                                int every, int first,
                                const std::function<std::string(int)>& path_of) {
    Files files = {{"package.json",
                    R"({"name":")" + name + R"(","version":"1.0.0","main":")" + main + R"("})"}};
    std::string reached = "module.exports = {\n";
    for (int i = 0; i < count; ++i) {
      files.push_back({path_of(i), "module.exports = " + step_function(i) + ";\n"});
      if (i % every == first) {
        reached += "  step" + std::to_string(i) + ": require('./" + path_of(i) + "'),\n";
      }
    }
    files.push_back({main, reached + "};\n"});
    return files;
  }

  // Expects the summary to test as many targets as the cap it states, fewer than it found: the
  // number it found.
  static double expect_tested_up_to_the_cap(boost::json::object& test) {
    const auto& targets = test["summary"].at("package").at("targets");
    const auto found = targets.at("found").to_number<double>();
    const auto cap = targets.at("cap").to_number<double>();
    EXPECT_EQ(targets.at("tested").to_number<double>(), cap);
    EXPECT_LT(cap, found);
    return found;
  }

  static std::set<std::string> generated_paths(boost::json::object& test) {
    std::set<std::string> paths;
    for (const auto& file : test["files"].as_array()) paths.emplace(file.at("path").as_string());
    return paths;
  }

  static std::vector<std::string> problem_codes(boost::json::object& test) {
    std::vector<std::string> codes;
    for (const auto& problem : test["summary"].at("problems").as_array()) {
      codes.push_back(std::string(problem.at("path").as_string()) + ":" +
                      std::string(problem.at("code").as_string()));
    }
    return codes;
  }

  std::string project_;
};

const char* const kRange = R"(exports.clamp = (n, lo, hi) => {
  if (typeof n !== 'number') throw new TypeError('n must be a number');
  return Math.min(hi, Math.max(lo, n));
};
exports.within = (n, lo, hi) => n >= lo && n <= hi;
)";

// Mocha's `suite` is not defined under Jest: were the package's own test a
// target or in the suite's folder, every file would fail with it.
TEST_F(GeneratePackageShapesTest, APackagesOwnMochaTestsAreSkippedAndItsSourcesTested) {
  auto test = import_and_generate(
      {{"package.json",
        R"({"name":"range","version":"1.0.0","main":"index.js","scripts":{"test":"mocha"}})"},
       {"index.js", kRange},
       {"test/test.js", R"(const assert = require('assert');
const { clamp } = require('..');
suite('clamp', () => { test('clamps', () => assert.equal(clamp(5, 0, 3), 3)); });
)"},
       {".mocharc.js", "module.exports = { ui: 'tdd' };\n"}});
  ASSERT_FALSE(test.empty());
  EXPECT_EQ(reason_skipped(test, "test/test.js"), "own_test") << boost::json::serialize(test);
  EXPECT_TRUE(problem_codes(test).empty()) << boost::json::serialize(test["summary"]);
  EXPECT_GE(test["summary"].at("testsKept").to_number<double>(), 2);
  EXPECT_TRUE(generated_paths(test).contains("__tests__/index.test.js"));
  run_passes(test);
}

// tsd's type tests use `import x = require('.')`, which Babel refuses: the
// generator once exited with it and the request got a 500.
TEST_F(GeneratePackageShapesTest, ATypeTestFileIsSkippedNotAFailureOfTheGeneration) {
  auto test = import_and_generate(
      {{"package.json", R"({"name":"range","version":"1.0.0","types":"index.d.ts"})"},
       {"index.js", kRange},
       {"index.d.ts",
        "export declare function clamp(n: number, lo: number, hi: number): number;\n"},
       {"index.test-d.ts", R"(import {expectType} from 'tsd';
import range = require('.');
expectType<number>(range.clamp(1, 2, 3));
)"}});
  ASSERT_FALSE(test.empty());
  EXPECT_EQ(reason_skipped(test, "index.test-d.ts"), "own_test");
  EXPECT_EQ(reason_skipped(test, "index.d.ts"), "type_declaration");
  EXPECT_TRUE(problem_codes(test).empty()) << boost::json::serialize(test["summary"]);
  EXPECT_GE(test["summary"].at("testsKept").to_number<double>(), 2);
  run_passes(test);
}

// "type": "module" with CommonJS twins in .cjs, conditional and subpath
// exports, and a react-native variant whose dependency is not declared.
TEST_F(GeneratePackageShapesTest, ADualModulePackageGetsTestsInTheFormatsItsFoldersNeed) {
  auto test = import_and_generate({
      {"package.json", R"({"name":"dual","version":"2.0.0","type":"module",
 "main":"./lib/index.cjs",
 "exports":{".":{"import":"./lib/index.js","require":"./lib/index.cjs"},
            "./words":"./lib/words.js"},
 "react-native":"./lib/random.native.js"})"},
      {"lib/index.js", "export const double = (n) => n * 2;\nexport const name = 'dual';\n"},
      {"lib/index.cjs", "exports.double = (n) => n * 2;\nexports.name = 'dual';\n"},
      {"lib/words.js", R"(export function shout(text) {
  if (typeof text !== 'string') throw new TypeError('text must be a string');
  return text.toUpperCase() + '!';
}
)"},
      {"lib/random.native.js",
       "import { getRandomBytes } from 'expo-random';\nexport const bytes = (n) => "
       "getRandomBytes(n);\n"},
  });
  ASSERT_FALSE(test.empty());
  EXPECT_EQ(reason_skipped(test, "lib/index.js"), "es_module_twin");
  EXPECT_EQ(reason_skipped(test, "lib/random.native.js"), "platform_variant");
  EXPECT_TRUE(problem_codes(test).empty()) << boost::json::serialize(test["summary"]);
  const auto paths = generated_paths(test);
  // Node reads a .js file here as an ES module: the configuration and the
  // test that requires a CommonJS file are .cjs; the ES module's test imports.
  EXPECT_TRUE(paths.contains("jest.config.cjs")) << boost::json::serialize(test["files"]);
  EXPECT_TRUE(paths.contains("lib/__tests__/index.test.cjs"));
  EXPECT_NE(content_of(test, "lib/__tests__/words.test.js").find("import { shout }"),
            std::string::npos);
  EXPECT_EQ(test["summary"].at("package").at("type"), "module");
  run_passes(test);
}

// A CLI that exits when loaded: loaded as a library it ended every run early.
TEST_F(GeneratePackageShapesTest, ABinCliThatExitsAtLoadIsTestedAsAProgram) {
  auto test = import_and_generate(
      {{"package.json", R"({"name":"greeter","version":"1.0.0","bin":{"greet":"bin/greet.js"}})"},
       {"index.js",
        "exports.greet = (name) => {\n  if (!name) throw new Error('name required');\n  return "
        "'Hello, ' + name + '!';\n};\n"},
       {"bin/greet.js", R"(#!/usr/bin/env node
const { greet } = require('..');
const name = process.argv[2];
if (!name || name === '--help') {
  console.error('usage: greet NAME');
  process.exit(2);
}
console.log(greet(name));
)"}});
  ASSERT_FALSE(test.empty());
  EXPECT_TRUE(problem_codes(test).empty()) << boost::json::serialize(test["summary"]);
  const auto program = content_of(test, "bin/__tests__/greet.program.test.js");
  EXPECT_NE(program.find("spawnSync"), std::string::npos) << program;
  EXPECT_NE(program.find("expect(result.status).toBe(2);"), std::string::npos) << program;
  EXPECT_NE(program.find("'usage: greet NAME\\n'"), std::string::npos) << program;
  EXPECT_NE(program.find("'Hello, hello!\\n'"), std::string::npos) << program;
  EXPECT_TRUE(generated_paths(test).contains("__tests__/index.test.js"));
  run_passes(test);
}

// Shaped like uuid: a `bin` without an extension that runs a module reading
// the command line and exiting, and `exports` whose `default` (a browser build)
// an earlier `node` condition shadows. The program is run, never loaded; the
// browser build and its files are variants Node never loads.
TEST_F(GeneratePackageShapesTest, AnExtensionlessBinIsRunAndAShadowedDefaultIsAVariant) {
  auto test = import_and_generate(
      {{"package.json", R"({"name":"stamp","version":"1.0.0","main":"./lib/index.js",
 "exports":{".":{"node":{"require":"./lib/index.js"},"default":"./browser/index.js"}},
 "bin":{"stamp":"./bin/stamp"}})"},
       {"lib/index.js",
        "exports.stamp = (text) => {\n  if (typeof text !== 'string') throw new "
        "TypeError('text must be a string');\n  return '[' + text + ']';\n};\n"},
       {"lib/cli.js", R"(const { stamp } = require('./index');
const [text] = process.argv.slice(2);
if (!text) {
  console.error('usage: stamp TEXT');
  process.exit(1);
}
console.log(stamp(text));
)"},
       {"bin/stamp", "#!/usr/bin/env node\nrequire('../lib/cli');\n"},
       {"browser/index.js", "export { stamp } from './stamp.js';\n"},
       {"browser/stamp.js", "export const stamp = (text) => window.btoa(text);\n"}});
  ASSERT_FALSE(test.empty());
  EXPECT_EQ(reason_skipped(test, "lib/cli.js"), "program_module");
  EXPECT_EQ(reason_skipped(test, "browser/index.js"), "platform_variant");
  EXPECT_EQ(reason_skipped(test, "browser/stamp.js"), "platform_variant");
  EXPECT_TRUE(problem_codes(test).empty()) << boost::json::serialize(test["summary"]);
  const auto program = content_of(test, "bin/__tests__/stamp.program.test.js");
  EXPECT_NE(program.find("expect(result.status).toBe(1);"), std::string::npos) << program;
  EXPECT_NE(program.find("'usage: stamp TEXT\\n'"), std::string::npos) << program;
  EXPECT_TRUE(generated_paths(test).contains("lib/__tests__/index.test.js"));
  EXPECT_EQ(test["summary"].at("package").at("targets").at("tested").to_number<double>(), 1);
  run_passes(test);
}

// 600 modules: no refusal; what the entry point reaches is tested first, the
// rest up to the cap the summary states, and the others are skipped with it.
TEST_F(GeneratePackageShapesTest, ASixHundredFilePackageGetsTestsForWhatItsEntryReachesFirst) {
  auto test = import_and_generate(package_of_steps("many", "main.js", 600, 100, 7, [](int i) {
    return "lib/unit" + std::to_string(i) + ".js";
  }));
  ASSERT_FALSE(test.empty());
  EXPECT_EQ(expect_tested_up_to_the_cap(test), 601);
  EXPECT_EQ(reason_skipped(test, "lib/unit599.js"), "over_cap");
  // The entry point and the six modules it requires come first.
  const auto paths = generated_paths(test);
  for (const char* reached :
       {"__tests__/main.test.js", "lib/__tests__/unit7.test.js", "lib/__tests__/unit507.test.js"}) {
    EXPECT_TRUE(paths.contains(reached)) << reached;
  }
  run_passes(test);
}

// yup@1.3.3 keeps its own tests' Jest configuration in package.json ("jest": setup files and a
// test folder its tarball leaves out); Jest refuses a jest.config.js beside it. The configuration
// goes into that key, and the run writes the returned package.json in place of the submitted one.
TEST_F(GeneratePackageShapesTest, APackageJsonWithItsOwnJestKeyCarriesTheGeneratedConfiguration) {
  auto test = import_and_generate(
      {{"package.json", R"({"name":"spans","version":"1.0.0","main":"index.js",)"
                        R"("jest":{"roots":["test"],"setupFilesAfterEnv":["./test-setup.js"]}})"},
       {"index.js", kRange}});
  ASSERT_FALSE(test.empty());
  const auto paths = generated_paths(test);
  EXPECT_FALSE(paths.contains("jest.config.js")) << boost::json::serialize(test["files"]);
  auto manifest = boost::json::parse(content_of(test, "package.json")).as_object();
  EXPECT_EQ(manifest["name"], "spans");
  EXPECT_EQ(manifest["main"], "index.js");
  const auto& jest = manifest["jest"].as_object();
  EXPECT_FALSE(jest.contains("roots"));
  EXPECT_EQ(jest.at("testMatch").as_array().at(0), "**/__tests__/**/*.test.?([mc])[jt]s?(x)");
  run_passes(test);
}

// Shaped like date-fns@2.30.0 (5,722 files, once refused with 413 "more than 5000 files"): a
// folder per function with its CommonJS module, its type declarations and its package.json, and
// an ES module copy under esm/. It imports, and generation answers with the cap's skips stated.
TEST_F(GeneratePackageShapesTest, AFiveThousandFilePackageImportsAndGetsTestsUpToItsCap) {
  auto files = package_of_steps("dates", "index.js", 1300, 400, 3,
                                [](int i) { return "step" + std::to_string(i) + "/index.js"; });
  for (int i = 0; i < 1300; ++i) {
    const auto name = "step" + std::to_string(i);
    files.push_back({name + "/index.d.ts", "export default function (n: number): string;\n"});
    files.push_back({name + "/package.json", R"({"sideEffects":false,"typings":"./index.d.ts"})"});
    files.push_back({"esm/" + name + "/index.js", "export default " + step_function(i) + ";\n"});
  }
  ASSERT_GT(files.size(), 5000u);
  auto test = import_and_generate(files);
  ASSERT_FALSE(test.empty());
  EXPECT_GE(expect_tested_up_to_the_cap(test), 1301);
  EXPECT_EQ(reason_skipped(test, "step1299/index.js"), "over_cap");
  EXPECT_EQ(reason_skipped(test, "step0/index.d.ts"), "type_declaration");
  EXPECT_TRUE(generated_paths(test).contains("__tests__/index.test.js"));
  run_passes(test);
}

// npm installs a package whose package.json says "dependencies": [].
TEST_F(GeneratePackageShapesTest, LegacyDependencyShapesAreReadNotRefused) {
  auto test = import_and_generate(
      {{"package.json", R"({"name":"legacy","dependencies":[]})"}, {"index.js", kRange}});
  ASSERT_FALSE(test.empty());
  EXPECT_TRUE(problem_codes(test).empty()) << boost::json::serialize(test["summary"]);
  EXPECT_GE(test["summary"].at("testsKept").to_number<double>(), 2);
  run_passes(test);
}

// Code that writes files by relative paths: each scenario and each test runs in an empty
// temporary folder of its own, so what the tests assert (the folder holding just what the code
// wrote) holds on the run path too, and nothing is written into the package's folder.
TEST_F(GeneratePackageShapesTest, CodeThatWritesFilesIsTestedInATemporaryFolderNotThePackages) {
  auto test = import_and_generate(
      {{"package.json", R"({"name":"notes","version":"1.0.0","main":"index.js"})"},
       {"index.js", R"(const fs = require('fs');
exports.save = (name, text) => {
  if (typeof name !== 'string' || name === '') throw new TypeError('name must be a string');
  fs.writeFileSync(name, String(text));
  return fs.readdirSync('.').sort();
};
)"}});
  ASSERT_FALSE(test.empty());
  const auto suite = content_of(test, "__tests__/index.test.js");
  EXPECT_NE(suite.find("process.chdir("), std::string::npos) << suite;
  // A listing of the folder the code wrote in, holding only what it wrote.
  EXPECT_NE(suite.find("toEqual(['"), std::string::npos) << suite;
  EXPECT_EQ(suite.find("package.json"), std::string::npos) << suite;
  EXPECT_GE(test["summary"].at("testsKept").to_number<double>(), 2);
  run_passes(test);
}

// Jest 30's mock functions carry Symbol.dispose (Node's 'nodejs.dispose'), Jest 29's do not: a
// test asserting what code read from a mock's own symbols would fail in a user's Jest 29.
// Verification's other environment gives mocks only what both have, and drops such a test.
TEST_F(GeneratePackageShapesTest, AssertionsOnMembersOnlyJest30MocksHaveAreNotKept) {
  auto test = import_and_generate(
      {{"package.json", R"({"name":"symbols","version":"1.0.0","main":"index.js"})"},
       {"index.js", R"(exports.symbolsOf = (fn) => {
  if (typeof fn !== 'function') return 'not a function';
  return Object.getOwnPropertySymbols(fn).map(String);
};
)"}});
  ASSERT_FALSE(test.empty());
  EXPECT_GE(test["summary"].at("testsKept").to_number<double>(), 1);
  for (const auto& file : test["files"].as_array()) {
    const std::string content(file.at("content").as_string());
    EXPECT_EQ(content.find("nodejs.dispose"), std::string::npos) << content;
  }
  run_passes(test);
}

}  // namespace
}  // namespace vouch::testing
