#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "events/source_file.hpp"

namespace vouch::store {

// Bounds on what an import may bring; a bomb (an archive that expands past
// them, or that holds millions of empty entries) is refused while it is read,
// never after. A real npm package is well inside them: date-fns@2.30.0 holds
// 5,722 files and 6.7 MB.
struct SnapshotLimits {
  // Archive entries of every kind (files, folders, links), or uploaded files.
  std::size_t max_entries = 20000;
  std::uint64_t max_bytes = 32ull << 20;      // all files, expanded
  std::uint64_t max_file_bytes = 1ull << 20;  // one file; larger ones are skipped
};

// How links in an archive are treated: an uploaded archive with one is
// refused; a repository's links are left out (listed as skipped).
enum class LinkPolicy { kRefuse, kSkip };

struct SnapshotContents {
  std::vector<events::SourceFile> files;
  std::vector<std::string> skipped;  // "path: why", for what was left out
};

// The files of a tar archive (gzip-compressed or not) as a snapshot: regular
// files under safe relative paths (events::invalid_upload_path), a single
// top-level folder that holds everything removed (as in npm's and GitHub's
// tarballs), `.git/` and `node_modules/` left out, files over the per-file
// limit skipped. kInvalid for a corrupt archive, an unsafe path, a link
// (under LinkPolicy::kRefuse), a device or other special entry, or no file at
// all; kTooLarge when it holds more entries or bytes than the limits allow.
[[nodiscard]] base::Result<SnapshotContents> read_snapshot_archive(std::string_view archive,
                                                                   const SnapshotLimits& limits,
                                                                   LinkPolicy links);

// The same rules for files uploaded as JSON (paths already checked), but
// their paths are kept as they are.
[[nodiscard]] base::Result<SnapshotContents> select_snapshot_files(
    std::vector<events::SourceFile> files, const SnapshotLimits& limits);

}  // namespace vouch::store
