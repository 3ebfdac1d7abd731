#pragma once

#include <boost/json/array.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vouch::events {

// A file of an upload or of a generated suite: a relative path and its text.
struct SourceFile {
  std::string path;
  std::string content;
};

inline constexpr std::size_t kMaxUploadFiles = 200;
inline constexpr std::size_t kMaxPathLength = 512;

// Why `path` may not name a file of an upload (absolute, "..", backslashes,
// empty segments, control characters), or nullopt when it is a safe relative
// path that stays inside the upload's folder.
std::optional<std::string> invalid_upload_path(std::string_view path);

// True for the file names generation treats as sources: JavaScript and
// TypeScript (not declaration files, which hold no code).
bool is_javascript_path(std::string_view path);

boost::json::array files_to_json(const std::vector<SourceFile>& files);
// Throws json_access::CorruptRecord on a malformed array.
std::vector<SourceFile> files_from_json(const boost::json::value& value);

}  // namespace vouch::events
