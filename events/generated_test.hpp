#pragma once

#include <optional>
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

// Only while an asynchronous generation (Prefer: respond-async) goes on.
inline constexpr std::string_view kTestGenerating = "generating";
inline constexpr std::string_view kTestPending = "pending";
inline constexpr std::string_view kTestRunning = "running";
inline constexpr std::string_view kTestPassed = "passed";
inline constexpr std::string_view kTestFailed = "failed";

inline constexpr std::string_view kTestGeneratedV1 = "TestGenerated.v1";
inline constexpr std::string_view kTestGenerationAcceptedV1 = "TestGenerationAccepted.v1";
inline constexpr std::string_view kTestGenerationFailedV1 = "TestGenerationFailed.v1";

// Why an asynchronous generation ended without tests: the error's code
// ("interrupted", "unavailable", "invalid_request", …) and a sentence.
struct GenerationError {
  std::string code;
  std::string detail;
};

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
  std::string last_run_id;               // empty before the first run
  std::optional<GenerationError> error;  // an asynchronous generation that failed
  base::Millis created = 0;
  base::Millis updated = 0;
};

// A generated test's stream holds TestGenerated alone (a synchronous
// generation), or TestGenerationAccepted then TestGenerated or
// TestGenerationFailed (Prefer: respond-async).
struct TestGenerated {
  GeneratedTest test;
};
// An asynchronous generation was accepted: the test without files, sources
// or summary, status generating.
struct TestGenerationAccepted {
  GeneratedTest test;
};
// An asynchronous generation ended without tests (also when vouchd stopped
// during it: code "interrupted", recorded at the next start).
struct TestGenerationFailed {
  std::string test_id;
  GenerationError error;
  base::Millis at = 0;
};

EncodedEvent encode(const TestGenerated& event);
EncodedEvent encode(const TestGenerationAccepted& event);
EncodedEvent encode(const TestGenerationFailed& event);
// kInternal when the data is corrupt; the account comes from the envelope.
base::Result<TestGenerated> decode_test_generated(std::string_view data,
                                                  const std::string& account);
base::Result<TestGenerationAccepted> decode_test_generation_accepted(std::string_view data,
                                                                     const std::string& account);
base::Result<TestGenerationFailed> decode_test_generation_failed(std::string_view data);

// The record as the tests read model stores it.
std::string encode_generated_test(const GeneratedTest& test);
base::Result<GeneratedTest> decode_generated_test(std::string_view text);

inline std::string test_stream(const std::string& id) { return "test-" + id; }

}  // namespace vouch::events
