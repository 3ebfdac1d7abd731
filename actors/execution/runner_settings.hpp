#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace vouch::store {
class CoverageReports;
}  // namespace vouch::store

namespace vouch::runner_cache {
class RunnerCodeCache;
class TransformCache;
}  // namespace vouch::runner_cache

namespace vouch::actors {

// Where run.js leaves Jest's coverage report in a run's folder (lcov.info,
// coverage-final.json, lcov-report/): runner/src/run/jest-argv.js.
inline constexpr const char* kCoverageReportFolder = ".vouch-coverage";
// Jest's cacheDirectory in a run's folder: runner/src/run/jest-argv.js.
inline constexpr const char* kJestCacheFolder = ".jest-cache";
// Jest's cache of run.js's warm-up suite in a runner's folder, and the name
// its transforms are kept under in the transform cache (no project id has a
// dash): runner/src/run/prime.js.
inline constexpr const char* kWarmUpCacheFolder = ".vouch-warm-up-cache";
inline constexpr const char* kWarmUpCacheScope = "warm-up";
// V8's code cache of the runner's modules in a runner's folder, written by a
// primed runner (run.js --save-code-cache) or lent to an unprimed one
// (--code-cache): runner/src/run/module-code-cache.js.
inline constexpr const char* kCodeCacheFile = ".vouch-code-cache";

// Limits of one sandboxed runner process (vouch-sandbox's options).
struct SandboxLimits {
  unsigned cpu_seconds = 30;
  unsigned memory_mb = 1024;
  unsigned max_procs = 128;
  unsigned max_file_mb = 64;
  unsigned wall_ms = 60'000;
};

// Where the Node.js side lives and how jobs run: every generation and every
// run is a fresh runner process under vouch-sandbox (process/sandbox/).
struct RunnerSettings {
  std::filesystem::path runner_dir;  // holds bin/generate.js and bin/run.js
  std::filesystem::path sandbox;     // the vouch-sandbox launcher, beside vouchd
  std::filesystem::path node;        // runs generate.js and default-version runs
  std::filesystem::path npm;        // installs runs' dependencies (outside the sandbox, no scripts)
  std::string isolation = "auto";   // vouch-sandbox --isolation; the probe's answer at start-up
  std::filesystem::path work_root;  // one folder per job below it, removed after the job
  std::filesystem::path dependency_root;      // npm installs, one folder per dependency map
  std::vector<std::filesystem::path> hidden;  // covered inside the sandbox (the data folder)
  // Where runs keep their coverage reports; none kept when null.
  store::CoverageReports* coverage_reports = nullptr;
  // Jest's transforms of each project, lent to its next runs on this machine;
  // only with bubblewrap, which shows every run its folder at the same path.
  std::shared_ptr<runner_cache::TransformCache> transform_cache;
  // V8's code cache of the runner's modules, lent to runners started with
  // runs waiting; only with isolation, which hides where it is kept.
  std::shared_ptr<runner_cache::RunnerCodeCache> code_cache;

  // Generation: fresh processes from a bounded pool.
  std::size_t generator_slots = 2;
  std::chrono::milliseconds generation_queue_wait{10'000};  // then 503 with Retry-After
  std::chrono::milliseconds generation_budget{20'000};      // the generator's own time budget
  SandboxLimits generation_limits{60, 2048, 256, 64, 45'000};

  // Runs: pre-started runners, each used for exactly one run.
  std::size_t executor_slots = 2;  // runs at once
  std::size_t warm_runners = 2;    // ready runners kept for the default Node.js version
  std::chrono::milliseconds run_queue_wait{120'000};  // a run waits this long for a slot
  SandboxLimits run_limits{30, 1024, 128, 64, 60'000};
  std::chrono::milliseconds install_timeout{180'000};  // npm install of a run's dependencies

  // Installed Node.js majors ("20") and their binaries; the default major
  // is that of `node`.
  std::map<std::string, std::filesystem::path> node_versions;
  std::string default_node_major;
};

}  // namespace vouch::actors
