#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "actors/execution/runner_settings.hpp"
#include "actors/messages.hpp"
#include "base/result.hpp"
#include "events/run.hpp"
#include "events/source_file.hpp"
#include "events/test_cases.hpp"
#include "process/child_process.hpp"

// The server's half of the runner protocol (runner/README.md): the command
// lines that start sandboxed runners, the jobs written to them, and what
// their answers and exits mean.
namespace vouch::actors {

// `vouch-sandbox WORKDIR LIMITS --hide … --ro RUNNER --ro NODE_DIR [--ro …] -- NODE SCRIPT ARGS…`.
// The data folder is hidden; `readable` are the only folders of it the job
// sees (read-only): its own dependency set, never the cache that holds it.
process::ProcessSpec sandboxed_runner(const RunnerSettings& settings, const SandboxLimits& limits,
                                      const std::filesystem::path& workdir,
                                      const std::filesystem::path& node, std::string_view script,
                                      const std::vector<std::string>& script_args = {},
                                      const std::vector<std::filesystem::path>& readable = {});

// --- generate ---------------------------------------------------------------

struct GenerationJob {
  std::vector<events::SourceFile> files;
  std::string framework;
  double threshold = 0;
  std::chrono::milliseconds budget{0};
  std::optional<std::filesystem::path> node_path;  // the dependencies' node_modules
  // The wall time the generator may stretch its budget to on a busy machine (0: twice the budget).
  std::chrono::milliseconds wall_limit{0};
  // The wall time by which it must have answered, verification included (0: not stated).
  std::chrono::milliseconds deadline{0};
  // The configured budget, which `budget` scales with the sources sent (0: not stated); the
  // generator scales it again by the sources it tests, never past `budget`.
  std::chrono::milliseconds base_budget{0};
  // The run path's memory limit (RunnerSettings::run_limits), which verification's runs are held
  // to, so that a suite that passed there fits a run (nullopt: not stated).
  std::optional<unsigned> run_memory_mb = std::nullopt;
};

struct GenerationOutput {
  std::vector<events::SourceFile> files;  // the generated tests
  std::string summary;                    // JSON object
  // Paths of the submitted files the suite runs with; nullopt: all of them.
  std::optional<std::vector<std::string>> sources;
};

std::string generation_job_line(const GenerationJob& job);

// The summary with one more problem (code and message), for what the server
// knows and the generator cannot: a dependency install that failed.
// REQUIRES: `summary` is a JSON object (as read_generation returns it).
std::string with_problem(const std::string& summary, std::string_view path, std::string_view code,
                         std::string_view message);

// A progress line of the generator (`{"progress":{phase, filesDone,
// filesTotal, testsKept}}`, written before its result with --progress) as
// GenerationProgress without its test id; nullopt for any other line.
std::optional<GenerationProgress> read_generation_progress(const std::string& line);

// The generator's answer: kInvalid when the uploaded code made generation
// stop at a limit, kInternal when the generator failed.
base::Result<GenerationOutput> read_generation(const std::optional<std::string>& line,
                                               const process::ProcessExit& exit);

// --- run ----------------------------------------------------------------------

struct RunJob {
  std::vector<events::SourceFile> files;  // sources and tests, written into the work folder
  std::optional<std::filesystem::path> node_path;  // the dependencies' node_modules
  unsigned wall_ms = 0;
};

std::string run_job_line(const RunJob& job);

// True when a warm runner's first line says it is ready.
bool is_ready_line(const std::string& line);

// What a run came to: results, failures and, when it could not complete, why
// (a limit the sandbox reports, a crash, the runner's own error).
events::RunReport read_run(const std::optional<std::string>& line,
                           const process::ProcessExit& exit);

// The tests of a run's result line one by one (results.tests), for its
// JUnit report: entries that are not objects with a name are left out, at
// most kMaxTestCases are kept and texts are cut to kMaxCaseText; empty when
// the line holds none.
std::vector<events::TestCase> read_test_cases(const std::string& line);

// The sandbox launcher's report line (the last `{"sandbox":…}` line on
// stderr) as an error, or nullopt when the command exited by itself with 0.
std::optional<events::RunError> sandbox_verdict(const process::ProcessExit& exit);

}  // namespace vouch::actors
