#include "http/junit_report.hpp"

#include <gtest/gtest.h>

#include "events/test_cases.hpp"

namespace vouch::http {
namespace {

events::TestRun completed_run() {
  events::TestRun run;
  run.id = "run_1";
  run.created = 1'700'000'000'000;
  return run;
}

int count(const std::string& text, const std::string& what) {
  int found = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++found;
  return found;
}

TEST(JunitXml, ASuitePerFileInReportedOrderWithTotals) {
  const std::vector<events::TestCase> cases{
      {"b.test.js", "b", "b › one", "passed", 1500, "", ""},
      {"a.test.js", "", "two", "failed", 20, "Expected: 3\nReceived: 2", "at t (a.test.js:1:2)"},
      {"b.test.js", "b", "b › three", "skipped", 0, "", ""}};
  const auto xml = junit_xml(completed_run(), cases);
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", 0), 0u) << xml;
  EXPECT_NE(
      xml.find(
          R"(<testsuites name="vouch run run_1" tests="3" failures="1" errors="0" time="1.520">)"),
      std::string::npos)
      << xml;
  EXPECT_LT(xml.find(R"(<testsuite name="b.test.js")"), xml.find(R"(<testsuite name="a.test.js")"));
  EXPECT_NE(
      xml.find(R"(name="b.test.js" tests="2" failures="0" errors="0" skipped="1" time="1.500")"),
      std::string::npos)
      << xml;
  EXPECT_NE(xml.find(R"(<testcase name="b › one" classname="b.test.js" time="1.500"/>)"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<skipped/>"), std::string::npos);
  // The message's first line as the attribute, message and stack as the text.
  EXPECT_NE(xml.find(R"(<failure message="Expected: 3" type="failure">Expected: 3)"
                     "\nReceived: 2\nat t (a.test.js:1:2)</failure>"),
            std::string::npos)
      << xml;
  EXPECT_EQ(count(xml, "<testcase "), 3);
}

TEST(JunitXml, MarkupIsEscapedAndWhatXmlCannotHoldIsLeftOut) {
  const std::vector<events::TestCase> cases{{"x&y.test.js", "", "<a> \"quoted\" & 'so'", "failed",
                                             0, "bad\x01\x1b[31m \xEF\xBF\xBE end", ""}};
  const auto xml = junit_xml(completed_run(), cases);
  EXPECT_NE(xml.find(R"(name="&lt;a&gt; &quot;quoted&quot; &amp; 'so'")"), std::string::npos)
      << xml;
  EXPECT_NE(xml.find(R"(classname="x&amp;y.test.js")"), std::string::npos);
  EXPECT_NE(xml.find(">bad[31m  end</failure>"), std::string::npos) << xml;
  EXPECT_EQ(xml.find('\x01'), std::string::npos);
}

TEST(JunitXml, NoTestsIsAnEmptyReport) {
  EXPECT_NE(junit_xml(completed_run(), {}).find(R"(tests="0" failures="0")"), std::string::npos);
}

TEST(TestCases, RoundTripThroughTheirStoredForm) {
  const std::vector<events::TestCase> cases{{"a.test.js", "s", "s › t", "failed", 7, "why", "at x"},
                                            {"b.js", "", "u", "passed", 0, "", ""}};
  auto decoded = events::decode_test_cases(events::encode_test_cases(cases));
  ASSERT_TRUE(decoded) << decoded.error().message;
  ASSERT_EQ(decoded->size(), 2u);
  EXPECT_EQ((*decoded)[0].stack, "at x");
  EXPECT_EQ((*decoded)[0].duration_ms, 7);
  EXPECT_EQ((*decoded)[1].name, "u");
  EXPECT_FALSE(events::decode_test_cases(R"({"tests":[{"name":1}]})"));
  EXPECT_FALSE(events::decode_test_cases("[]"));
}

}  // namespace
}  // namespace vouch::http
