#pragma once

#include <string>
#include <vector>

#include "events/run.hpp"
#include "events/test_cases.hpp"

namespace vouch::http {

// The JUnit XML report of a completed run (the schema Jenkins, GitLab,
// GitHub Actions' reporters and Buildkite read: tests/junit/junit-10.xsd):
// <testsuites> with one <testsuite> per test file, in the order the runner
// reported them, and a <testcase> per test with its describe blocks and
// title as `name`, the file as `classname`, its time in seconds, and a
// <failure> (message attribute, message and stack as text) or <skipped/>.
// Characters XML 1.0 cannot hold are left out.
std::string junit_xml(const events::TestRun& run, const std::vector<events::TestCase>& cases);

}  // namespace vouch::http
