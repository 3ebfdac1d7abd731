#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"

// The tests of one run, one by one, as the runner reported them: what a JUnit
// report is built from. Kept as a file of the run's coverage report
// (kTestCasesFile), so it lives exactly as long as that report.
namespace vouch::events {

inline constexpr std::string_view kCasePassed = "passed";
inline constexpr std::string_view kCaseFailed = "failed";
inline constexpr std::string_view kCaseSkipped = "skipped";

struct TestCase {
  std::string file;                 // the test file, relative to the run's folder
  std::string suite;                // the describe titles joined with " › ", "" outside any
  std::string name;                 // the describe titles and the test's title
  std::string status{kCasePassed};  // passed, failed or skipped
  std::int64_t duration_ms = 0;
  std::string message;  // failed: the failure without its stack
  std::string stack;    // failed: the stack's "at …" lines
};

// At most this many cases are kept per run, and each text field is cut to
// kMaxCaseText bytes (the runner already trims messages and stacks).
inline constexpr std::size_t kMaxTestCases = 10'000;
inline constexpr std::size_t kMaxCaseText = 8 * 1024;

// The cases' file in the run's coverage report, and its text.
inline constexpr std::string_view kTestCasesFile = "vouch-test-cases.json";
std::string encode_test_cases(const std::vector<TestCase>& cases);
// kInternal when the text is not a list of cases.
base::Result<std::vector<TestCase>> decode_test_cases(std::string_view text);

}  // namespace vouch::events
