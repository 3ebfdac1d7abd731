#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace vouch::store {

// Bounds on what is read back from a folder a sandboxed process wrote.
struct SandboxOutputLimits {
  std::size_t max_files = 2000;
  std::uint64_t max_bytes = 64ull << 20;  // all files read, together
  int max_depth = 16;
};

// The files below `folder` (relative path → content), which a sandboxed
// process wrote and may have laid traps in: no symbolic link is followed, only
// regular files and folders are taken, within `limits`. `wanted`, when given,
// picks the files read by path (one skipped is neither read nor counted).
// Empty when the folder does not exist; kInvalid, naming `what` ("the
// coverage report"), when it breaks the limits or holds something else.
[[nodiscard]] base::Result<std::map<std::string, std::string>> read_sandbox_output(
    const std::filesystem::path& folder, const SandboxOutputLimits& limits, std::string_view what,
    const std::function<bool(const std::string& path)>& wanted = {});

// The regular file `file`, which a sandboxed process wrote in a folder of
// the server's (its work folder), read without following a link and only
// when it holds at most `max_bytes`. std::nullopt when there is none;
// kInvalid, naming `what`, when it is something else or larger.
[[nodiscard]] base::Result<std::optional<std::string>> read_sandbox_file(
    const std::filesystem::path& file, std::uint64_t max_bytes, std::string_view what);

}  // namespace vouch::store
