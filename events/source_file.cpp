#include "events/source_file.hpp"

#include <boost/json/value.hpp>

#include "events/json_access.hpp"

namespace vouch::events {

std::optional<std::string> invalid_upload_path(std::string_view path) {
  if (path.empty()) return "must not be empty";
  if (path.size() > kMaxPathLength) {
    return "must be at most " + std::to_string(kMaxPathLength) + " characters";
  }
  if (path.front() == '/') return "must be relative, not absolute";
  for (const char c : path) {
    if (c == '\\') return "must use / as separator, not backslashes";
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return "must not hold control characters";
    }
  }
  std::size_t start = 0;
  while (start <= path.size()) {
    const auto slash = path.find('/', start);
    const auto segment = path.substr(
        start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (segment == "..") return "must stay inside the upload (no \"..\" segments)";
    if (segment.empty() || segment == ".") return "must not have empty or \".\" segments";
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return std::nullopt;
}

bool is_javascript_path(std::string_view path) {
  for (std::string_view declaration : {".d.ts", ".d.mts", ".d.cts"}) {
    if (path.ends_with(declaration)) return false;
  }
  for (std::string_view extension :
       {".js", ".cjs", ".mjs", ".jsx", ".ts", ".tsx", ".mts", ".cts"}) {
    if (path.size() > extension.size() && path.ends_with(extension)) return true;
  }
  return false;
}

boost::json::array files_to_json(const std::vector<SourceFile>& files) {
  boost::json::array out;
  out.reserve(files.size());
  for (const auto& file : files) {
    out.push_back(boost::json::object{{"path", file.path}, {"content", file.content}});
  }
  return out;
}

std::vector<SourceFile> files_from_json(const boost::json::value& value) {
  namespace ja = json_access;
  if (!value.is_array()) throw ja::CorruptRecord{"files must be an array"};
  std::vector<SourceFile> files;
  for (const auto& item : value.get_array()) {
    const auto& object = ja::as_object(item, "file");
    files.push_back({ja::string_at(object, "path"), ja::string_at(object, "content")});
  }
  return files;
}

}  // namespace vouch::events
