#include "http/junit_report.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <map>

#include "base/clock.hpp"

namespace vouch::http {
namespace {

// The characters XML escapes: as written in text, and in an attribute.
struct Escape {
  char c;
  std::string_view text;
  std::string_view attribute;
};
constexpr Escape kEscapes[] = {
    {'&', "&amp;", "&amp;"}, {'<', "&lt;", "&lt;"},    {'>', "&gt;", "&gt;"}, {'"', "\"", "&quot;"},
    {'\n', "\n", "&#10;"},   {'\r', "&#13;", "&#13;"}, {'\t', "\t", "&#9;"}};

// XML 1.0 text: markup characters escaped; control characters other than tab,
// newline and carriage return, and U+FFFE/U+FFFF, left out (no XML holds
// them). In attributes, the white space is escaped too so that it survives
// attribute normalisation.
std::string escaped(std::string_view text, bool attribute) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == 0xEF && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0xBF &&
        (static_cast<unsigned char>(text[i + 2]) & 0xFE) == 0xBE) {
      i += 2;
      continue;
    }
    const auto escape = std::find_if(std::begin(kEscapes), std::end(kEscapes),
                                     [&](const Escape& e) { return e.c == text[i]; });
    if (escape != std::end(kEscapes)) {
      out += attribute ? escape->attribute : escape->text;
    } else if (c >= 0x20 && c != 0x7F) {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

std::string attribute(std::string_view name, std::string_view value) {
  return " " + std::string(name) + "=\"" + escaped(value, true) + "\"";
}

std::string seconds(std::int64_t ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%lld.%03lld", static_cast<long long>(ms / 1000),
                static_cast<long long>(ms % 1000));
  return text;
}

struct Totals {
  std::size_t tests = 0, failures = 0, skipped = 0;
  std::int64_t ms = 0;
  void add(const events::TestCase& test) {
    ++tests;
    if (test.status == events::kCaseFailed) ++failures;
    if (test.status == events::kCaseSkipped) ++skipped;
    ms += test.duration_ms;
  }
};

std::string testcase(const events::TestCase& test) {
  std::string xml = "    <testcase" + attribute("name", test.name) +
                    attribute("classname", test.file) +
                    attribute("time", seconds(test.duration_ms));
  if (test.status == events::kCasePassed) return xml + "/>\n";
  xml += ">\n";
  if (test.status == events::kCaseSkipped) {
    xml += "      <skipped/>\n";
  } else {
    const auto first_line = test.message.substr(0, test.message.find('\n'));
    std::string body = test.message;
    if (!test.stack.empty()) body += (body.empty() ? "" : "\n") + test.stack;
    xml += "      <failure" + attribute("message", first_line) + attribute("type", "failure") +
           ">" + escaped(body, false) + "</failure>\n";
  }
  return xml + "    </testcase>\n";
}

}  // namespace

std::string junit_xml(const events::TestRun& run, const std::vector<events::TestCase>& cases) {
  // Suites in the order their first test was reported.
  std::vector<std::string> files;
  std::map<std::string, std::vector<const events::TestCase*>> by_file;
  Totals all;
  for (const auto& test : cases) {
    auto& tests = by_file[test.file];
    if (tests.empty()) files.push_back(test.file);
    tests.push_back(&test);
    all.add(test);
  }
  const auto timestamp = base::format_timestamp(run.created);
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites" +
                    attribute("name", "vouch run " + run.id) +
                    attribute("tests", std::to_string(all.tests)) +
                    attribute("failures", std::to_string(all.failures)) + attribute("errors", "0") +
                    attribute("time", seconds(all.ms)) + ">\n";
  for (const auto& file : files) {
    Totals totals;
    std::string body;
    for (const auto* test : by_file[file]) {
      totals.add(*test);
      body += testcase(*test);
    }
    xml += "  <testsuite" + attribute("name", file) +
           attribute("tests", std::to_string(totals.tests)) +
           attribute("failures", std::to_string(totals.failures)) + attribute("errors", "0") +
           attribute("skipped", std::to_string(totals.skipped)) +
           attribute("time", seconds(totals.ms)) + attribute("timestamp", timestamp) +
           attribute("file", file) + ">\n" + body + "  </testsuite>\n";
  }
  return xml + "</testsuites>\n";
}

}  // namespace vouch::http
