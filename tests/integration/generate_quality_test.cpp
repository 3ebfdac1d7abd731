// What generated suites are worth (issue 26): a class whose methods must be
// called in order is used whole, each method where it completes; and nothing
// of the sandbox's environment is asserted, so the suite passes elsewhere.
#include "runner_fixture.hpp"

namespace vouch::testing {
namespace {

class GenerateQualityTest : public RunnerTest {
 protected:
  void SetUp() override {
    start();
    project_ = create_project(0);
  }

  static std::string content_of(boost::json::object& test, const std::string& path) {
    for (const auto& file : test["files"].as_array()) {
      if (file.at("path").as_string() == path) return std::string(file.at("content").as_string());
    }
    ADD_FAILURE() << "no " << path << " among the generated files";
    return {};
  }

  std::string project_;
};

// A stack popped only after a push, a journal written and closed only after
// it was opened: a test that calls them on a fresh instance only throws.
const RunnerTest::Files kOrderedClasses = {{"stack.js", R"(class Stack {
  constructor() { this.items = []; }
  push(item) { this.items.push(item); return this; }
  pop() {
    if (this.items.length === 0) throw new RangeError('empty stack');
    return this.items.pop();
  }
  get size() { return this.items.length; }
}
module.exports = { Stack };
)"},
                                           {"journal.js", R"(class Journal {
  constructor() { this.lines = null; this.name = null; }
  open(name) {
    if (this.lines) throw new Error('already open');
    this.name = String(name);
    this.lines = [];
    return this;
  }
  write(text) {
    if (!this.lines) throw new Error('not open');
    this.lines.push(String(text).trim());
    return this.lines.length;
  }
  close() {
    if (!this.lines) throw new Error('not open');
    const text = this.name + ': ' + this.lines.join(' | ');
    this.lines = null;
    return text;
  }
}
module.exports = { Journal };
)"},
                                           {"owner.js", R"(const os = require('os');
exports.owner = (label) => ({ label: String(label), uid: process.getuid(), host: os.hostname() });
)"}};

TEST_F(GenerateQualityTest, AClassWhoseMethodsMustBeCalledInOrderGetsASuiteThatCallsThemAndPasses) {
  auto response = generate(project_, kOrderedClasses);
  ASSERT_EQ(response.status, 201u) << response.body;
  auto test = json(response);
  auto& summary = test["summary"].as_object();

  const auto stack = content_of(test, "__tests__/stack.test.js");
  EXPECT_NE(stack.find(".push("), std::string::npos) << stack;
  EXPECT_NE(stack.find("expect(stackInstance.pop()).to"), std::string::npos)
      << "pop() completes after a push:\n"
      << stack;
  const auto journal = content_of(test, "__tests__/journal.test.js");
  for (const std::string call :
       {"expect(journalInstance.write(", "expect(journalInstance.close()"}) {
    const auto at = journal.find(call);
    ASSERT_NE(at, std::string::npos) << call << " in\n" << journal;
    const auto line = journal.substr(at, journal.find('\n', at) - at);
    EXPECT_NE(line.find(".toBe("), std::string::npos) << "returns a value, not a throw: " << line;
    EXPECT_LT(journal.find(".open("), at) << journal;
  }
  // The sandbox's uid (1879048192 + a pid) and host name are not asserted.
  const auto owner = content_of(test, "__tests__/owner.test.js");
  EXPECT_NE(owner.find("uid: expect.any(Number)"), std::string::npos) << owner;
  EXPECT_EQ(owner.find("18790"), std::string::npos) << owner;

  auto run = run_to_end(std::string(test["testId"].as_string()));
  EXPECT_EQ(run["outcome"], "success") << boost::json::serialize(run);
  auto& results = run["results"].as_object();
  EXPECT_EQ(results["failed"].to_number<double>(), 0);
  EXPECT_EQ(results["passed"].to_number<double>(), summary["testsKept"].to_number<double>());
  EXPECT_EQ(results["coverage"].at("statements").to_number<double>(), 100)
      << boost::json::serialize(results);
}

}  // namespace
}  // namespace vouch::testing
