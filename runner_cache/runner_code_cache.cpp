#include "runner_cache/runner_code_cache.hpp"

#include <algorithm>
#include <cctype>

#include "store/blob_store.hpp"
#include "store/sandbox_output.hpp"

namespace vouch::runner_cache {
namespace {

namespace fs = std::filesystem;

bool is_major(const std::string& major) {
  return !major.empty() && major.size() <= 8 && std::all_of(major.begin(), major.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
}

}  // namespace

RunnerCodeCache::RunnerCodeCache(fs::path root) : root_(std::move(root)) {
  std::error_code ec;
  fs::remove_all(root_, ec);
  fs::create_directories(root_, ec);
}

bool RunnerCodeCache::holds(const std::string& major) const {
  std::lock_guard lock(mutex_);
  return held_.contains(major);
}

base::Status RunnerCodeCache::keep(const std::string& major, const fs::path& file) {
  if (!is_major(major)) return base::Error::invalid("not a Node.js major: " + major);
  if (holds(major)) return base::ok_status();
  auto content = store::read_sandbox_file(file, kMaxBytes, "the runner's code cache");
  if (!content) return std::move(content).error();
  if (!*content) return base::Error::invalid("the runner wrote no code cache");
  // Two runners of a major may get here together; their caches are alike
  // and either may stay.
  if (auto written = store::write_durably(root_ / major, **content); !written) return written;
  std::lock_guard lock(mutex_);
  held_[major] = (*content)->size();
  return base::ok_status();
}

base::Result<bool> RunnerCodeCache::lend(const std::string& major, const fs::path& file) {
  if (!holds(major)) return false;
  std::error_code ec;
  fs::copy_file(root_ / major, file, fs::copy_options::overwrite_existing, ec);
  if (ec) return base::Error::internal("cannot copy the code cache to " + file.string());
  std::lock_guard lock(mutex_);
  ++lent_;
  return true;
}

RunnerCodeCache::Stats RunnerCodeCache::stats() const {
  std::lock_guard lock(mutex_);
  Stats stats;
  for (const auto& [major, bytes] : held_) stats.bytes += bytes;
  stats.lent = lent_;
  return stats;
}

}  // namespace vouch::runner_cache
