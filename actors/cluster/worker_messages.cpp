#include "actors/cluster/worker_messages.hpp"

namespace vouch::actors {

JobFailure job_failure(const base::Error& error) {
  return {true, static_cast<std::int32_t>(error.code), error.message, error.retry_after_seconds};
}

base::Error to_error(const JobFailure& failure) {
  const auto code =
      failure.code >= 0 && failure.code <= static_cast<int>(base::ErrorCode::kInsufficientStorage)
          ? static_cast<base::ErrorCode>(failure.code)
          : base::ErrorCode::kInternal;
  return {code, failure.message, {}, failure.retry_after_seconds};
}

RunDone run_done(events::RunReport report) {
  RunDone done;
  if (report.results) {
    done.has_results = true;
    done.results = *report.results;
  }
  done.failures = std::move(report.failures);
  if (report.error) {
    done.has_error = true;
    done.error = std::move(*report.error);
  }
  return done;
}

events::RunReport to_report(RunDone done) {
  events::RunReport report;
  if (done.has_results) report.results = done.results;
  report.failures = std::move(done.failures);
  if (done.has_error) report.error = std::move(done.error);
  return report;
}

RunDone run_error(std::string code, std::string detail) {
  RunDone done;
  done.has_error = true;
  done.error = {std::move(code), std::move(detail)};
  return done;
}

}  // namespace vouch::actors
