#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace vouch::testing {

// Writes `content` to `path`, creating its folders.
inline void write_file(const std::filesystem::path& path, const std::string& content) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << content;
}

// The whole file; empty when it cannot be read.
inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace vouch::testing
