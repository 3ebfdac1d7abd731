#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/clock.hpp"
#include "base/result.hpp"
#include "events/encoded_event.hpp"
#include "events/run_environment.hpp"
#include "events/source_file.hpp"

// A generated test suite: what a client uploaded, what the generator wrote,
// and the generator's summary. Stream: "test-<id>". Its status follows its
// runs (docs/openapi.json): pending until the first run, then running, passed or
// failed after the last run.
namespace vouch::events {

inline constexpr std::string_view kTestPending = "pending";
inline constexpr std::string_view kTestRunning = "running";
inline constexpr std::string_view kTestPassed = "passed";
inline constexpr std::string_view kTestFailed = "failed";

inline constexpr std::string_view kTestGeneratedV1 = "TestGenerated.v1";

struct GeneratedTest {
  std::string id;
  std::string account;
  std::string project_id;
  std::string framework;
  double threshold = 0;
  std::vector<SourceFile> files;    // the generated test files (and jest.config.js)
  std::vector<SourceFile> sources;  // the uploaded files the tests exercise
  std::string summary;              // JSON object: the generator's summary
  // What the tests were generated in, and what a run that names no
  // environment of its own uses. Events recorded before generation took an
  // environment hold none: an empty node_version and no dependencies.
  RunEnvironment environment;
  std::string status{kTestPending};
  std::string last_run_id;  // empty before the first run
  base::Millis created = 0;
  base::Millis updated = 0;
};

// The one event of a generated test's own stream.
struct TestGenerated {
  GeneratedTest test;
};

EncodedEvent encode(const TestGenerated& event);
// kInternal when the data is corrupt; the account comes from the envelope.
base::Result<TestGenerated> decode_test_generated(std::string_view data,
                                                  const std::string& account);

// The record as the tests read model stores it.
std::string encode_generated_test(const GeneratedTest& test);
base::Result<GeneratedTest> decode_generated_test(std::string_view text);

inline std::string test_stream(const std::string& id) { return "test-" + id; }

}  // namespace vouch::events
