#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "base/clock.hpp"
#include "events/project.hpp"
#include "events/source_file.hpp"
#include "store/snapshot_archive.hpp"
#include "transport/address_policy.hpp"

// Project imports as the service's callers see them (no CAF here).
namespace vouch::actors {

// What POST /v1/projects/{id}/import brings: files, an archive, or a ref of
// the project's repository to clone.
struct ImportRequest {
  std::string project_id;
  std::string account;
  std::string source;                     // events::kImportUpload, kImportArchive, kImportGit
  std::vector<events::SourceFile> files;  // upload: paths already checked
  std::string archive;                    // archive: the .tar.gz body
  std::string repository;                 // git: the project's repository URL
  std::string ref;                        // git: a branch or tag; empty for the remote's HEAD
  base::Millis at = 0;
};

struct ImportedSnapshot {
  events::SnapshotSummary snapshot;
  std::vector<std::string> skipped;  // "path: why"
};

// How imports reach repositories.
struct ImportSettings {
  std::filesystem::path git;        // absolute; empty: git imports are refused
  std::filesystem::path work_root;  // a scratch folder per clone below it (the runner's)
  bool allow_file_urls = false;     // file:// repositories (tests, local mirrors)
  transport::AddressPolicy policy;  // which addresses an https clone may reach
  std::chrono::seconds clone_timeout{120};
  store::SnapshotLimits limits;
};

}  // namespace vouch::actors
