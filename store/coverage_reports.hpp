#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "base/clock.hpp"
#include "base/result.hpp"
#include "store/blob_store.hpp"
#include "store/sandbox_output.hpp"

namespace vouch::store {

// A run's coverage report: the files Jest wrote (lcov.info, the istanbul
// JSON, the HTML pages) by their path in the report.
struct CoverageManifest {
  std::string run_id;
  base::Millis created = 0;
  std::map<std::string, std::string> files;  // report path → SHA-256 of its content
};

// Coverage reports kept in a folder of the data folder, content-addressed:
// `blobs/<sha256>` holds each distinct file once (the HTML report's styles
// and scripts, a source unchanged between runs), `runs/<runId>.json` a run's
// manifest. Written durably (fsync, then rename) before the run's end is
// recorded, so a completed run's report is there. Reports older than the
// retention are removed, with the blobs no other report uses. Thread-safe.
class CoverageReports {
 public:
  using Limits = SandboxOutputLimits;  // of the whole report

  // REQUIRES: `root` can be created; retention > 0.
  CoverageReports(std::filesystem::path root, std::chrono::milliseconds retention, Limits limits);
  CoverageReports(std::filesystem::path root, std::chrono::milliseconds retention)
      : CoverageReports(std::move(root), retention, Limits{}) {}

  // Stores the report in `folder`, which the sandboxed runner wrote:
  // read_coverage_report(), then keep_files().
  [[nodiscard]] base::Result<bool> keep(const std::string& run_id,
                                        const std::filesystem::path& folder, base::Millis at);

  // Stores a report's files (path in the report → content), as a worker
  // read them. Returns whether there was a report (false for none). kInvalid
  // when the files break the limits or a path is not a safe relative one;
  // kInternal when storing fails. Removes expired reports at most once an hour.
  [[nodiscard]] base::Result<bool> keep_files(const std::string& run_id,
                                              const std::map<std::string, std::string>& files,
                                              base::Millis at);

  // The run's manifest; nullopt when the run has none (no report, or removed).
  [[nodiscard]] base::Result<std::optional<CoverageManifest>> manifest(
      const std::string& run_id) const;
  // A file of the run's report by its path in the report; nullopt when absent.
  [[nodiscard]] base::Result<std::optional<std::string>> file(const std::string& run_id,
                                                              const std::string& path) const;

  // Removes the reports created before `now` - retention and the blobs no
  // remaining report uses. Returns how many reports it removed.
  [[nodiscard]] base::Result<std::size_t> sweep(base::Millis now);

  std::chrono::milliseconds retention() const { return retention_; }

 private:
  std::filesystem::path root_;
  BlobStore blobs_;
  std::chrono::milliseconds retention_;
  Limits limits_;
  mutable std::mutex mutex_;  // keep() and sweep() one at a time
  base::Millis last_sweep_ = 0;
};

// The files of the report in `folder` (path in the report → content), which
// a sandboxed run wrote: read_sandbox_output().
[[nodiscard]] base::Result<std::map<std::string, std::string>> read_coverage_report(
    const std::filesystem::path& folder, const CoverageReports::Limits& limits);

}  // namespace vouch::store
