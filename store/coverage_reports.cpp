#include "store/coverage_reports.hpp"

#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <set>

#include "base/digest.hpp"
#include "events/source_file.hpp"
#include "store/sandbox_output.hpp"

namespace vouch::store {
namespace {

namespace fs = std::filesystem;

constexpr base::Millis kSweepEveryMs = 3'600'000;

bool usable_run_id(const std::string& run_id) {
  if (run_id.empty() || run_id.size() > 64) return false;
  for (const char c : run_id) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

base::Result<CoverageManifest> parse_manifest(const std::string& text) {
  boost::system::error_code ec;
  auto value = boost::json::parse(text, ec);
  if (ec || !value.is_object()) return base::Error::internal("corrupt coverage manifest");
  const auto& object = value.get_object();
  const auto* run_id = object.if_contains("runId");
  const auto* created = object.if_contains("created");
  const auto* files = object.if_contains("files");
  if (!run_id || !run_id->is_string() || !created || !created->is_int64() || !files ||
      !files->is_object()) {
    return base::Error::internal("corrupt coverage manifest");
  }
  CoverageManifest manifest{std::string(run_id->get_string()), created->get_int64(), {}};
  for (const auto& [path, sha] : files->get_object()) {
    if (!sha.is_string()) return base::Error::internal("corrupt coverage manifest");
    manifest.files.emplace(std::string(path), std::string(sha.get_string()));
  }
  return manifest;
}

}  // namespace

CoverageReports::CoverageReports(fs::path root, std::chrono::milliseconds retention, Limits limits)
    : root_(std::move(root)), blobs_(root_ / "blobs"), retention_(retention), limits_(limits) {
  std::error_code ec;
  fs::create_directories(root_ / "runs", ec);
}

base::Result<std::map<std::string, std::string>> read_coverage_report(
    const fs::path& folder, const CoverageReports::Limits& limits) {
  return read_sandbox_output(folder, limits, "the coverage report");
}

base::Result<bool> CoverageReports::keep(const std::string& run_id, const fs::path& folder,
                                         base::Millis at) {
  if (!usable_run_id(run_id)) return base::Error::invalid("not a run id: " + run_id);
  auto files = read_coverage_report(folder, limits_);
  if (!files) return std::move(files).error();
  return keep_files(run_id, *files, at);
}

base::Result<bool> CoverageReports::keep_files(const std::string& run_id,
                                               const std::map<std::string, std::string>& files,
                                               base::Millis at) {
  if (!usable_run_id(run_id)) return base::Error::invalid("not a run id: " + run_id);
  if (files.empty()) return false;
  if (files.size() > limits_.max_files) {
    return base::Error::invalid("the coverage report has too many files");
  }
  std::uint64_t bytes = 0;
  for (const auto& [path, content] : files) {
    if (auto why = events::invalid_upload_path(path)) {
      return base::Error::invalid("the coverage report holds " + path + ": " + *why);
    }
    bytes += content.size();
  }
  if (bytes > limits_.max_bytes) {
    return base::Error::invalid("the coverage report is larger than allowed");
  }

  bool sweep_due = false;
  {
    std::lock_guard lock(mutex_);
    boost::json::object manifest_files;
    for (const auto& [path, content] : files) {
      auto sha = blobs_.put(content);
      if (!sha) return std::move(sha).error();
      manifest_files[path] = std::move(sha).value();
    }
    const boost::json::object manifest{
        {"runId", run_id}, {"created", at}, {"files", manifest_files}};
    if (auto status =
            write_durably(root_ / "runs" / (run_id + ".json"), boost::json::serialize(manifest));
        !status) {
      return std::move(status).error();
    }
    sweep_due = at - last_sweep_ >= kSweepEveryMs;
  }
  // The report is stored; an expired one failing to go is retried next time.
  if (sweep_due) (void)sweep(at);
  return true;
}

base::Result<std::optional<CoverageManifest>> CoverageReports::manifest(
    const std::string& run_id) const {
  if (!usable_run_id(run_id)) return std::optional<CoverageManifest>{};
  auto text = read_whole(root_ / "runs" / (run_id + ".json"));
  if (!text) return std::optional<CoverageManifest>{};
  auto parsed = parse_manifest(*text);
  if (!parsed) return std::move(parsed).error();
  return std::optional<CoverageManifest>{std::move(parsed).value()};
}

base::Result<std::optional<std::string>> CoverageReports::file(const std::string& run_id,
                                                               const std::string& path) const {
  auto found = manifest(run_id);
  if (!found) return std::move(found).error();
  if (!*found) return std::optional<std::string>{};
  const auto entry = (*found)->files.find(path);
  if (entry == (*found)->files.end()) return std::optional<std::string>{};
  auto content = blobs_.get(entry->second);
  if (!content) return std::move(content).error();
  if (!*content) return base::Error::internal("a coverage report lost its file " + path);
  return content;
}

base::Result<std::size_t> CoverageReports::sweep(base::Millis now) {
  std::lock_guard lock(mutex_);
  last_sweep_ = now;
  const base::Millis cutoff = now - retention_.count();
  std::size_t removed = 0;
  std::set<std::string> used;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root_ / "runs", ec)) {
    const auto name = entry.path().filename().string();
    if (name.starts_with(".tmp-")) {
      fs::remove(entry.path(), ec);
      continue;
    }
    auto text = read_whole(entry.path());
    if (!text) continue;  // removed meanwhile
    auto parsed = parse_manifest(*text);
    if (!parsed) return base::Error::internal("corrupt coverage manifest " + name);
    if (parsed->created < cutoff) {
      fs::remove(entry.path(), ec);
      ++removed;
      continue;
    }
    for (const auto& [path, sha] : parsed->files) used.insert(sha);
  }
  if (ec) return base::Error::internal("cannot list coverage reports: " + ec.message());
  if (auto status = blobs_.remove_unused(used); !status) return std::move(status).error();
  return removed;
}

}  // namespace vouch::store
