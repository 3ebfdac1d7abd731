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

  std::string project_;
};

// A stack popped only after a push, a journal written and closed only after
// it was opened: a test that calls them on a fresh instance only throws.
RunnerTest::Files ordered_classes() {
  return {{"stack.js", RunnerTest::fixture("classes/stack.js")},
          {"journal.js", RunnerTest::fixture("classes/journal.js")},
          {"owner.js", R"(const os = require('os');
exports.owner = (label) => ({ label: String(label), uid: process.getuid(), host: os.hostname() });
)"}};
}

TEST_F(GenerateQualityTest, AClassWhoseMethodsMustBeCalledInOrderGetsASuiteThatCallsThemAndPasses) {
  auto response = generate(project_, ordered_classes());
  ASSERT_EQ(response.status, 201u) << response.body;
  auto test = json(response);

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

  auto run = run_passes(test);
  EXPECT_EQ(run["results"].at("coverage").at("statements").to_number<double>(), 100)
      << boost::json::serialize(run);
}

}  // namespace
}  // namespace vouch::testing
