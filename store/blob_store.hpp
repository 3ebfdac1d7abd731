#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>

#include "base/result.hpp"

namespace vouch::store {

// Files kept by the SHA-256 of their content in one folder: a content stored
// twice is stored once. put() is durable when it returns (the file is written
// to a temporary name, fsynced, renamed, and the folder fsynced).
// Thread-safe for distinct contents; equal contents race harmlessly (both
// renames leave the same bytes).
class BlobStore {
 public:
  // REQUIRES: `folder` can be created.
  explicit BlobStore(std::filesystem::path folder);

  // The content's lowercase hex SHA-256, once it is stored.
  [[nodiscard]] base::Result<std::string> put(const std::string& content);
  // nullopt when no blob has this hash.
  [[nodiscard]] base::Result<std::optional<std::string>> get(const std::string& sha) const;
  // Removes every blob (and leftover temporary file) not in `used`.
  [[nodiscard]] base::Status remove_unused(const std::set<std::string>& used);

  const std::filesystem::path& folder() const { return folder_; }

 private:
  std::filesystem::path folder_;
};

// `content` at `target`, durably: written to a temporary file beside it,
// fsynced, renamed over `target`, and the folder fsynced.
[[nodiscard]] base::Status write_durably(const std::filesystem::path& target,
                                         const std::string& content);

// The whole file, nullopt when it cannot be opened.
std::optional<std::string> read_whole(const std::filesystem::path& path);

}  // namespace vouch::store
