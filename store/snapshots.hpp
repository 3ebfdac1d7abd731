#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "events/source_file.hpp"
#include "store/blob_store.hpp"

namespace vouch::store {

struct SnapshotEntry {
  std::string path;
  std::string sha;  // of its content, in the blob store
  std::uint64_t size = 0;
};

struct Snapshot {
  std::string id;                    // "snp_" and 24 hex digits of the manifest's SHA-256
  std::vector<SnapshotEntry> files;  // by path
  std::uint64_t bytes = 0;
};

// Imported project snapshots, content-addressed: each distinct file once in
// `blobs/`, each snapshot's manifest in `manifests/<id>.json`, whose id
// derives from its content (the same files give the same snapshot). Written
// durably before the import is recorded; kept as long as the data folder
// (the log's project.imported events name them). Thread-safe.
class SnapshotStore {
 public:
  // REQUIRES: `root` can be created.
  explicit SnapshotStore(std::filesystem::path root);

  [[nodiscard]] base::Result<Snapshot> put(const std::vector<events::SourceFile>& files);
  // nullopt for an unknown id.
  [[nodiscard]] base::Result<std::optional<Snapshot>> find(const std::string& id) const;
  // The snapshot's files with their content. kInternal when a blob is missing.
  [[nodiscard]] base::Result<std::vector<events::SourceFile>> files(const Snapshot& snapshot) const;

 private:
  std::filesystem::path manifests_;
  BlobStore blobs_;
};

}  // namespace vouch::store
