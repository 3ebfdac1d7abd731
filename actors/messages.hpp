#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/clock.hpp"
#include "events/generated_test.hpp"
#include "events/plan.hpp"
#include "events/run.hpp"
#include "events/source_file.hpp"
#include "store/access_view.hpp"

// Commands and replies of the actors that are not a single aggregate's own
// (those live in events/). Plain structs: no CAF, so http/ can build them.
namespace vouch::actors {

// Opens the account if new (or moves it to `plan`) and issues a key on it.
struct IssueKey {
  std::string account;
  events::Plan plan = events::Plan::kFree;
  std::vector<std::string> scopes;
  std::string name;
  std::optional<std::string> secret;  // given only for the bootstrap key; otherwise generated
  base::Millis at = 0;
};

struct IssuedKey {
  store::KeyRecord record;
  events::Plan plan = events::Plan::kFree;
  std::string secret;  // shown once, never stored
};

struct RevokeKey {
  std::string key_id;
  base::Millis at = 0;
};

// Generates tests for uploaded files in a fresh sandboxed runner, with the
// environment's Node.js and its dependencies installed (as for a run); the
// reply is the generated test, durable.
struct GenerateTests {
  std::string test_id;
  std::string account;
  std::string project_id;
  std::string framework;
  double threshold = 0;
  std::vector<events::SourceFile> files;
  events::RunEnvironment environment;  // node_version always names an installed major
  base::Millis at = 0;
};

// How far an asynchronous generation got (the generator's progress lines,
// plus "queued" and "installing" from the server's side). Never recorded:
// held in memory by the generation coordinator until the generation ends.
// An empty phase: this process is not generating the test.
struct GenerationProgress {
  std::string test_id;
  std::string phase;
  std::uint32_t files_done = 0;
  std::uint32_t files_total = 0;
  std::uint32_t tests_kept = 0;
};

// Starts a run of a generated test; the reply is the run as it starts
// (durable), the run itself goes on in the background.
struct StartRun {
  std::string run_id;
  events::GeneratedTest test;
  events::RunEnvironment environment;
  base::Millis at = 0;
};

}  // namespace vouch::actors
