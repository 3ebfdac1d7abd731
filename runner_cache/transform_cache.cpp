#include "runner_cache/transform_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <fstream>
#include <set>
#include <vector>

#include "store/sandbox_output.hpp"

namespace vouch::runner_cache {
namespace {

namespace fs = std::filesystem;

// Jest's cacheDirectory holds `jest-transform-cache-<config>-<transformers>/`
// folders, besides its haste map and timings, which are not kept. run.js keeps
// its readings of untested sources' coverage in one named alike
// (runner/src/run/untested-coverage.js), which is kept with them.
constexpr std::string_view kTransformFolderPrefix = "jest-transform-cache-";
// <transform folder>/<two hex digits>/<file>
constexpr int kMaxDepth = 2;

bool plain_name(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  for (const char c : id) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return false;
  }
  return true;
}

bool is_transform(const std::string& path) {
  return path.starts_with(kTransformFolderPrefix) && path.find('/') != std::string::npos;
}

// Writes `content` to `target` through a temporary name, so a reader finds
// the whole file or none. Not fsynced: the cache does not outlive a restart.
base::Status write_whole(const fs::path& target, const std::string& content) {
  std::error_code ec;
  fs::create_directories(target.parent_path(), ec);
  if (ec) return base::Error::internal("cannot create " + target.parent_path().string());
  auto temporary = target;
  temporary += ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!out) return base::Error::internal("cannot write " + temporary.string());
  }
  fs::rename(temporary, target, ec);
  if (ec) return base::Error::internal("cannot rename " + temporary.string());
  return base::ok_status();
}

}  // namespace

TransformCache::TransformCache(fs::path root, Limits limits)
    : root_(std::move(root)), limits_(limits) {
  std::error_code ec;
  fs::remove_all(root_, ec);
  fs::create_directories(root_, ec);
}

base::Status TransformCache::lend(const std::string& scope, const fs::path& jest_cache) {
  if (!plain_name(scope)) return base::Error::invalid("not a plain name: " + scope);
  std::vector<std::string> paths;
  {
    std::lock_guard lock(mutex_);
    auto found = scopes_.find(scope);
    if (found == scopes_.end()) return base::ok_status();
    found->second.last_used = ++use_clock_;
    paths.reserve(found->second.files.size());
    for (const auto& [path, size] : found->second.files) paths.push_back(path);
  }
  struct stat owner {};
  if (::stat(jest_cache.parent_path().c_str(), &owner) != 0) {
    return base::Error::internal("cannot stat " + jest_cache.parent_path().string());
  }
  const bool give = ::geteuid() == 0;
  std::set<fs::path> created;
  std::error_code ec;
  std::uint64_t lent = 0;
  for (const auto& path : paths) {
    const auto target = jest_cache / path;
    if (created.insert(target.parent_path()).second) {
      fs::create_directories(target.parent_path(), ec);
      if (ec) return base::Error::internal("cannot create " + target.parent_path().string());
      if (give) {
        for (auto at = target.parent_path(); at != jest_cache.parent_path();
             at = at.parent_path()) {
          (void)::lchown(at.c_str(), owner.st_uid, owner.st_gid);
        }
      }
    }
    // A file dropped meanwhile (another run took the scope past its
    // limits) is a miss, which Jest mends by transforming again.
    if (!fs::copy_file(root_ / scope / path, target, ec)) continue;
    if (give) (void)::lchown(target.c_str(), owner.st_uid, owner.st_gid);
    ++lent;
  }
  std::lock_guard lock(mutex_);
  files_lent_ += lent;
  return base::ok_status();
}

base::Result<std::size_t> TransformCache::keep(const std::string& scope,
                                               const fs::path& jest_cache) {
  if (!plain_name(scope)) return base::Error::invalid("not a plain name: " + scope);
  std::set<std::string> held;
  {
    std::lock_guard lock(mutex_);
    if (auto found = scopes_.find(scope); found != scopes_.end()) {
      for (const auto& [path, size] : found->second.files) held.insert(path);
    }
  }
  const store::SandboxOutputLimits read_limits{limits_.max_files, limits_.max_bytes, kMaxDepth};
  auto written = store::read_sandbox_output(
      jest_cache, read_limits, "the transform cache",
      [&held](const std::string& path) { return is_transform(path) && !held.contains(path); });
  if (!written) {
    std::lock_guard lock(mutex_);
    ++refused_;
    return std::move(written).error();
  }
  if (written->empty()) return std::size_t{0};

  std::lock_guard lock(mutex_);
  auto& held_scope = scopes_[scope];
  std::uint64_t adding = 0;
  for (const auto& [path, content] : *written) adding += content.size();
  if (held_scope.bytes + adding > limits_.max_bytes ||
      held_scope.files.size() + written->size() > limits_.max_files) {
    drop(scope);
  }
  auto& kept = scopes_[scope];
  kept.last_used = ++use_clock_;
  std::size_t added = 0;
  for (const auto& [path, content] : *written) {
    if (kept.files.contains(path)) continue;  // kept by a run that ended meanwhile
    if (auto status = write_whole(root_ / scope / path, content); !status) {
      return std::move(status).error();
    }
    kept.files.emplace(path, content.size());
    kept.bytes += content.size();
    total_bytes_ += content.size();
    ++added;
  }
  files_kept_ += added;
  while (total_bytes_ > limits_.max_total_bytes) {
    auto oldest = scopes_.end();
    for (auto it = scopes_.begin(); it != scopes_.end(); ++it) {
      if (it->first != scope &&
          (oldest == scopes_.end() || it->second.last_used < oldest->second.last_used)) {
        oldest = it;
      }
    }
    if (oldest == scopes_.end()) break;  // this scope alone, within its own limits
    drop(oldest->first);
  }
  return added;
}

TransformCache::Stats TransformCache::stats() const {
  std::lock_guard lock(mutex_);
  return {total_bytes_, scopes_.size(), files_lent_, files_kept_, refused_};
}

void TransformCache::drop(const std::string& scope) {
  auto found = scopes_.find(scope);
  if (found == scopes_.end()) return;
  // Before the entry goes: `scope` may be its key.
  std::error_code ec;
  fs::remove_all(root_ / scope, ec);
  total_bytes_ -= found->second.bytes;
  scopes_.erase(found);
}

}  // namespace vouch::runner_cache
