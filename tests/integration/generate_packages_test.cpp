// Generation for real package shapes through the API (issue 11): a package
// with an npm dependency and its own package.json, methods attached by
// X.prototype = {…}, an EventEmitter class, promises and callbacks; the
// environment a generation takes, and what a run without one uses.
#include <future>

#include "runner_fixture.hpp"

namespace vouch::testing {
namespace {

class GeneratePackagesTest : public RunnerTest {
 protected:
  // Each test generates into a project of its own on a fresh vouchd.
  void SetUp() override {
    start();
    project_ = create_project(0);
  }

  HttpResponse generate_with(const std::string& project, const Files& files,
                             const std::string& more_fields) {
    return call(
        "POST", "/v1/tests/generate", VouchdProcess::kAdminKey,
        R"({"projectId":")" + project + R"(","files":)" + files_json(files) + more_fields + "}");
  }

  static std::vector<std::string> problem_codes(boost::json::object& test) {
    std::vector<std::string> codes;
    for (const auto& problem : test["summary"].as_object()["problems"].as_array()) {
      codes.emplace_back(problem.at("path").as_string().c_str());
      codes.back() += ":" + std::string(problem.at("code").as_string());
    }
    return codes;
  }

  std::string project_;
};

// is-number 7.0.0 tells numeric strings from others: the tests pass only
// with the real package installed at generation and at run time.
const RunnerTest::Files kPackage = {
    {"package.json", R"({"name":"shapes","version":"2.1.0","dependencies":{"is-number":"7.0.0"}})"},
    {"index.js", R"(const isNumber = require('is-number');
const { version } = require('./package.json');
exports.version = () => version;
exports.toAmount = (value) => {
  if (!isNumber(value)) throw new TypeError('not a number: ' + value);
  return Number(value).toFixed(2);
};
)"},
    {"vector.js", R"(function Vector(x, y) {
  this.x = x || 0;
  this.y = y || 0;
}
Vector.prototype = {
  plus(other) { return new Vector(this.x + other.x, this.y + other.y); },
  scale(factor) { return new Vector(this.x * factor, this.y * factor); },
  get length() { return Math.sqrt(this.x * this.x + this.y * this.y); },
  toString() { return '(' + this.x + ', ' + this.y + ')'; },
};
module.exports = Vector;
)"},
    {"stock.js", R"(const { EventEmitter } = require('events');
class Stock extends EventEmitter {
  constructor(limit) { super(); this.limit = limit || 3; this.count = 0; }
  add(n) {
    if (this.count + n > this.limit) { this.emit('full', this.count); return false; }
    this.count += n;
    this.emit('added', n, this.count);
    return true;
  }
}
module.exports = Stock;
)"},
    {"io.js", R"(exports.fetchUser = async (id) => {
  if (typeof id !== 'number') throw new TypeError('id must be a number');
  return { id, name: 'user' + id };
};
exports.readSetting = (name, callback) => {
  setImmediate(() => {
    if (name === 'missing') return callback(new Error('no setting ' + name));
    callback(null, name.toUpperCase());
  });
};
)"}};

TEST_F(GeneratePackagesTest, APackageWithADependencyGetsTestsThatPassWhenRunInItsEnvironment) {
  auto response = generate(project_, kPackage);  // no environment: package.json supplies it
  ASSERT_EQ(response.status, 201u) << response.body;
  auto test = json(response);
  EXPECT_TRUE(problem_codes(test).empty()) << response.body;
  const auto& environment = test["environment"].as_object();
  EXPECT_EQ(environment.at("dependencies").at("is-number"), "7.0.0");
  EXPECT_FALSE(environment.at("nodeVersion").as_string().empty());
  auto& summary = test["summary"].as_object();
  EXPECT_EQ(summary["perFile"].as_array().size(), 4u) << response.body;

  // Each shape is tested by what it does.
  const auto index = content_of(test, "__tests__/index.test.js");
  EXPECT_NE(index.find("'2.1.0'"), std::string::npos) << index;
  EXPECT_NE(index.find("TypeError"), std::string::npos) << index;
  const auto vector = content_of(test, "__tests__/vector.test.js");
  for (const char* member : {".plus(", ".scale(", ".length"}) {
    EXPECT_NE(vector.find(member), std::string::npos) << member << " in " << vector;
  }
  const auto stock = content_of(test, "__tests__/stock.test.js");
  EXPECT_NE(stock.find("recordEvents("), std::string::npos) << stock;
  EXPECT_NE(stock.find("'added'"), std::string::npos) << stock;
  const auto io = content_of(test, "__tests__/io.test.js");
  EXPECT_NE(io.find("resolves"), std::string::npos) << io;
  EXPECT_NE(io.find("'no setting missing'"), std::string::npos) << io;

  // A run that names no environment runs in the test's: is-number installed.
  auto run = run_passes(test);
  EXPECT_EQ(run["environment"].at("dependencies").at("is-number"), "7.0.0");
  EXPECT_EQ(run["results"].at("coverage").at("statements"), summary["coverage"].at("statements"));
}

TEST_F(GeneratePackagesTest, ADependencyThatCannotBeInstalledIsAProblemOfTheGeneration) {
  auto response = generate_with(
      project_,
      {{"needs.js", "const x = require('vouch-no-such-package-4711');\nexports.f = () => x;\n"},
       {"alone.js", "exports.twice = (n) => n * 2;\n"}},
      R"(,"environment":{"dependencies":{"vouch-no-such-package-4711":"1.0.0"}})");
  ASSERT_EQ(response.status, 201u) << response.body;
  auto test = json(response);
  const auto codes = problem_codes(test);
  EXPECT_EQ(codes, (std::vector<std::string>{"needs.js:missing_module",
                                             "environment.dependencies:install_failed"}))
      << response.body;
  EXPECT_NE(response.body.find("vouch-no-such-package-4711"), std::string::npos);
  EXPECT_FALSE(content_of(test, "__tests__/alone.test.js").empty());
}

// One module importing the other, and a TypeScript file: one shared transform
// (runner/src/transform.js) at generation and in the run.
TEST_F(GeneratePackagesTest, AnEsmPairAndATypeScriptFileGetTestsThatPassWhenRun) {
  auto response = generate(
      project_,
      {{"lib/slug.mjs", "export const slug = (words) => words.join('-').toLowerCase();\n"},
       {"lib/title.mjs", R"(import { slug } from './slug.mjs';
export default function title(words) {
  if (!Array.isArray(words)) throw new TypeError('words must be an array');
  return words.join(' ') + ' [' + slug(words) + ']';
}
)"},
       {"lib/ruler.ts", R"(export enum Unit { Cm = 'cm', In = 'in' }
export class Ruler {
  constructor(private unit: Unit = Unit.Cm) {}
  label(value: number): string {
    if (value < 0) throw new RangeError('negative length');
    return value.toFixed(1) + ' ' + this.unit;
  }
}
)"},
       {"lib/ruler.d.ts", "export declare class Ruler { label(value: number): string; }\n"}});
  ASSERT_EQ(response.status, 201u) << response.body;
  auto test = json(response);
  EXPECT_TRUE(problem_codes(test).empty()) << response.body;
  auto& summary = test["summary"].as_object();
  EXPECT_EQ(summary["perFile"].as_array().size(), 3u) << response.body;
  EXPECT_NE(
      content_of(test, "lib/__tests__/title.test.js").find("import title from '../title.mjs'"),
      std::string::npos);
  const auto ruler = content_of(test, "lib/__tests__/ruler.test.js");
  EXPECT_NE(ruler.find("'negative length'"), std::string::npos) << ruler;

  auto run = run_passes(test);
  const auto& coverage = run["results"].at("coverage");
  EXPECT_EQ(coverage.at("statements"), summary["coverage"].at("statements"));
  EXPECT_EQ(coverage.at("statements").to_number<double>(), 100);
}

// Random and time-dependent functions beside ordinary ones: every generation
// keeps a suite (values that differ between runs are asserted by type or the
// test is dropped on its own, never the whole suite).
TEST_F(GeneratePackagesTest, AModuleWithRandomAndTimeDependentFunctionsKeepsASuiteEveryTime) {
  const Files module = {{"luck.js", R"(exports.rollDie = () => 1 + Math.floor(Math.random() * 6);
exports.token = (length) => Math.random().toString(36).slice(2, 2 + (length || 8));
exports.stamp = (label) => label + '@' + new Date().toISOString();
exports.elapsed = (since) => Date.now() - since;
exports.pick = (items) => items[Math.floor(Math.random() * items.length)];
exports.add = (a, b) => a + b;
exports.greet = (name) => {
  if (!name) throw new Error('name required');
  return 'hi ' + name;
};
)"}};
  // Two at a time, as the server's two generator slots take them.
  constexpr int kGenerations = 10;
  for (int round = 0; round < kGenerations / 2; ++round) {
    std::vector<std::future<HttpResponse>> answers;
    for (int i = 0; i < 2; ++i) {
      answers.push_back(std::async(std::launch::async, [&] { return generate(project_, module); }));
    }
    for (auto& answer : answers) {
      auto response = answer.get();
      ASSERT_EQ(response.status, 201u) << response.body;
      auto test = json(response);
      EXPECT_TRUE(problem_codes(test).empty()) << response.body;
      EXPECT_GE(test["summary"].at("testsKept").to_number<double>(), 5) << response.body;
      EXPECT_FALSE(content_of(test, "__tests__/luck.test.js").empty());
    }
  }
}

TEST_F(GeneratePackagesTest, BadEnvironmentsAreRefusedAsForRuns) {
  const Files ok = {{"a.js", "exports.f = () => 1;\n"}};
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"(,"environment":{"nodeVersion":"7"})", "environment.nodeVersion"},
      {R"(,"environment":{"dependencies":["left-pad"]})", "environment.dependencies"},
      {R"(,"environment":{"dependencies":{"left-pad":"file:/etc"}})",
       "environment.dependencies.left-pad"},
      {R"(,"environment":{"dependencies":{"Not A Name":"1.0.0"}})",
       "environment.dependencies.Not A Name"},
  };
  for (const auto& [fields, field] : cases) {
    auto response = generate_with(project_, ok, fields);
    EXPECT_EQ(response.status, 400u) << fields << " → " << response.body;
    if (response.status == 400u) {
      EXPECT_EQ(field_of(response), field) << fields;
    }
  }
  // Nothing was stored.
  EXPECT_TRUE(json(call("GET", "/v1/tests?projectId=" + project_))["tests"].as_array().empty());
}

}  // namespace
}  // namespace vouch::testing
