#pragma once

#include <caf/typed_actor.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "actors/messages.hpp"
#include "base/error.hpp"
#include "events/run.hpp"
#include "events/run_environment.hpp"
#include "events/source_file.hpp"

// The jobs a server hands to a worker and what comes back: the messages that
// cross machines (CAF's remote actors), so each has an inspect() and holds
// only what CAF 0.17 can serialize (no std::optional: flags beside values).
// A local worker gets the very same messages, so local and remote slots are
// driven alike.
namespace vouch::events {

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, SourceFile& x) {
  return f(x.path, x.content);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, RunEnvironment& x) {
  return f(x.node_version, x.dependencies);
}

}  // namespace vouch::events

namespace vouch::actors {

// Why a job failed, as an events::Error without its field errors (a job's
// failure is never about a request field).
struct JobFailure {
  bool failed = false;
  std::int32_t code = 0;  // events::ErrorCode
  std::string message;
  std::uint32_t retry_after_seconds = 0;
};

JobFailure job_failure(const base::Error& error);
base::Error to_error(const JobFailure& failure);

// Generate tests for `files` in a fresh sandboxed generator, after
// installing the environment's dependencies on the worker.
// Takes the progress of generations (the generation coordinator).
using generation_progress_actor = caf::typed_actor<caf::reacts_to<GenerationProgress>>;

struct GenerationTask {
  std::string test_id;  // names the work folder
  std::vector<events::SourceFile> files;
  std::string framework;
  double threshold = 0;
  events::RunEnvironment environment;
  // Where the generator's progress goes; none for a synchronous generation.
  generation_progress_actor progress_to;
};

struct GenerationDone {
  JobFailure failure;                     // the generator failed (then nothing else is set)
  std::vector<events::SourceFile> files;  // the generated tests
  std::string summary;                    // JSON object
  // The submitted files the suite runs with, when the generator states them
  // (it leaves out skipped files nothing needs: the package's own tests...).
  bool sources_stated = false;
  std::vector<std::string> sources;
  // The dependencies could not be installed: generation went on without them.
  bool install_failed = false;
  std::string install_code;
  std::string install_detail;
  std::string worker;  // which worker generated
};

// Run a generated suite in a fresh runner on the worker.
struct RunTask {
  std::string run_id;
  std::vector<events::SourceFile> files;  // sources and tests
  events::RunEnvironment environment;
  // Runs still queued at the hub when this one was sent: the worker starts
  // the runner that replaces this one's without priming while others wait.
  std::uint32_t runs_waiting = 0;
  // Whose Jest transform cache the run may use (store::TransformCache).
  std::string project_id;
};

struct RunDone {
  bool has_results = false;
  events::RunResults results;
  std::vector<std::string> failures;
  bool has_error = false;
  events::RunError error;
  // Jest's coverage report (lcov.info, coverage-final.json, lcov-report/…)
  // by path in the report; empty when none was written.
  std::vector<events::SourceFile> coverage_report;
  std::string worker;  // which worker ran it
};

RunDone run_done(events::RunReport report);
events::RunReport to_report(RunDone done);
RunDone run_error(std::string code, std::string detail);

// What a worker offers when it joins a server.
struct WorkerOffer {
  std::string name;  // host and process, for the operator's eyes
  std::uint32_t generators = 0;
  std::uint32_t executors = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, JobFailure& x) {
  return f(x.failed, x.code, x.message, x.retry_after_seconds);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, GenerationTask& x) {
  return f(x.test_id, x.files, x.framework, x.threshold, x.environment, x.progress_to);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, GenerationProgress& x) {
  return f(x.test_id, x.phase, x.files_done, x.files_total, x.tests_kept);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, GenerationDone& x) {
  return f(x.failure, x.files, x.summary, x.sources_stated, x.sources, x.install_failed,
           x.install_code, x.install_detail, x.worker);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, RunTask& x) {
  return f(x.run_id, x.files, x.environment, x.runs_waiting, x.project_id);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, RunDone& x) {
  return f(x.has_results, x.results.total, x.results.passed, x.results.failed,
           x.results.coverage.statements, x.results.coverage.branches, x.results.coverage.functions,
           x.results.coverage.lines, x.failures, x.has_error, x.error.code, x.error.detail,
           x.coverage_report, x.worker);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, WorkerOffer& x) {
  return f(x.name, x.generators, x.executors);
}

}  // namespace vouch::actors
