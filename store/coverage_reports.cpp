#include "store/coverage_reports.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <cerrno>
#include <cstring>
#include <memory>
#include <set>

#include "events/digest.hpp"
#include "events/source_file.hpp"

namespace vouch::store {
namespace {

namespace fs = std::filesystem;

constexpr events::Millis kSweepEveryMs = 3'600'000;

// A descriptor closed when it goes out of scope.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

events::Error system_error(const std::string& what) {
  return events::Error::internal(what + ": " + std::strerror(errno));
}

bool usable_run_id(const std::string& run_id) {
  if (run_id.empty() || run_id.size() > 64) return false;
  for (const char c : run_id) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

struct Collected {
  std::map<std::string, std::string> files;  // path → content
  std::uint64_t bytes = 0;
};

// Reads the regular file `name` of `dir`, never through a link.
events::Result<std::string> read_entry(int dir, const char* name, std::uint64_t budget,
                                       const std::string& path) {
  Fd fd(::openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) return system_error("cannot open " + path);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return system_error("cannot stat " + path);
  if (!S_ISREG(st.st_mode)) return events::Error::invalid(path + " is not a regular file");
  if (static_cast<std::uint64_t>(st.st_size) > budget) {
    return events::Error::invalid("the coverage report is larger than allowed");
  }
  std::string content(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t done = 0;
  while (done < content.size()) {
    const auto n = ::read(fd.get(), content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return system_error("cannot read " + path);
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  content.resize(done);
  return content;
}

// Walks `dir` (an open folder) below `prefix`: regular files and folders only.
events::Status collect(int dir, const std::string& prefix, int depth,
                       const CoverageReports::Limits& limits, Collected& out) {
  if (depth > limits.max_depth) return events::Error::invalid("the coverage report nests too deep");
  const int listing_fd = ::dup(dir);
  if (listing_fd < 0) return system_error("cannot list " + prefix);
  std::unique_ptr<DIR, int (*)(DIR*)> listing(::fdopendir(listing_fd), ::closedir);
  if (!listing) {
    ::close(listing_fd);
    return system_error("cannot list " + prefix);
  }
  while (const dirent* entry = ::readdir(listing.get())) {
    const std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    const std::string path = prefix.empty() ? name : prefix + "/" + name;
    struct stat st {};
    if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      return system_error("cannot stat " + path);
    }
    if (S_ISDIR(st.st_mode)) {
      Fd child(::openat(dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      if (child.get() < 0) return system_error("cannot open " + path);
      if (auto status = collect(child.get(), path, depth + 1, limits, out); !status) return status;
    } else if (S_ISREG(st.st_mode)) {
      if (out.files.size() >= limits.max_files) {
        return events::Error::invalid("the coverage report has too many files");
      }
      auto content = read_entry(dir, name.c_str(), limits.max_bytes - out.bytes, path);
      if (!content) return std::move(content).error();
      out.bytes += content->size();
      out.files.emplace(path, std::move(content).value());
    } else {
      return events::Error::invalid("the coverage report holds " + path +
                                    ", which is neither a file nor a folder");
    }
  }
  return events::ok_status();
}

events::Result<CoverageManifest> parse_manifest(const std::string& text) {
  boost::system::error_code ec;
  auto value = boost::json::parse(text, ec);
  if (ec || !value.is_object()) return events::Error::internal("corrupt coverage manifest");
  const auto& object = value.get_object();
  const auto* run_id = object.if_contains("runId");
  const auto* created = object.if_contains("created");
  const auto* files = object.if_contains("files");
  if (!run_id || !run_id->is_string() || !created || !created->is_int64() || !files ||
      !files->is_object()) {
    return events::Error::internal("corrupt coverage manifest");
  }
  CoverageManifest manifest{std::string(run_id->get_string()), created->get_int64(), {}};
  for (const auto& [path, sha] : files->get_object()) {
    if (!sha.is_string()) return events::Error::internal("corrupt coverage manifest");
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

events::Result<std::map<std::string, std::string>> read_coverage_report(
    const fs::path& folder, const CoverageReports::Limits& limits) {
  Fd dir(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (dir.get() < 0) {
    if (errno == ENOENT) return std::map<std::string, std::string>{};
    return system_error("cannot open " + folder.string());
  }
  Collected collected;
  if (auto status = collect(dir.get(), "", 0, limits, collected); !status) {
    return std::move(status).error();
  }
  return std::move(collected.files);
}

events::Result<bool> CoverageReports::keep(const std::string& run_id, const fs::path& folder,
                                           events::Millis at) {
  if (!usable_run_id(run_id)) return events::Error::invalid("not a run id: " + run_id);
  auto files = read_coverage_report(folder, limits_);
  if (!files) return std::move(files).error();
  return keep_files(run_id, *files, at);
}

events::Result<bool> CoverageReports::keep_files(const std::string& run_id,
                                                 const std::map<std::string, std::string>& files,
                                                 events::Millis at) {
  if (!usable_run_id(run_id)) return events::Error::invalid("not a run id: " + run_id);
  if (files.empty()) return false;
  if (files.size() > limits_.max_files) {
    return events::Error::invalid("the coverage report has too many files");
  }
  std::uint64_t bytes = 0;
  for (const auto& [path, content] : files) {
    if (auto why = events::invalid_upload_path(path)) {
      return events::Error::invalid("the coverage report holds " + path + ": " + *why);
    }
    bytes += content.size();
  }
  if (bytes > limits_.max_bytes) {
    return events::Error::invalid("the coverage report is larger than allowed");
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

events::Result<std::optional<CoverageManifest>> CoverageReports::manifest(
    const std::string& run_id) const {
  if (!usable_run_id(run_id)) return std::optional<CoverageManifest>{};
  auto text = read_whole(root_ / "runs" / (run_id + ".json"));
  if (!text) return std::optional<CoverageManifest>{};
  auto parsed = parse_manifest(*text);
  if (!parsed) return std::move(parsed).error();
  return std::optional<CoverageManifest>{std::move(parsed).value()};
}

events::Result<std::optional<std::string>> CoverageReports::file(const std::string& run_id,
                                                                 const std::string& path) const {
  auto found = manifest(run_id);
  if (!found) return std::move(found).error();
  if (!*found) return std::optional<std::string>{};
  const auto entry = (*found)->files.find(path);
  if (entry == (*found)->files.end()) return std::optional<std::string>{};
  auto content = blobs_.get(entry->second);
  if (!content) return std::move(content).error();
  if (!*content) return events::Error::internal("a coverage report lost its file " + path);
  return content;
}

events::Result<std::size_t> CoverageReports::sweep(events::Millis now) {
  std::lock_guard lock(mutex_);
  last_sweep_ = now;
  const events::Millis cutoff = now - retention_.count();
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
    if (!parsed) return events::Error::internal("corrupt coverage manifest " + name);
    if (parsed->created < cutoff) {
      fs::remove(entry.path(), ec);
      ++removed;
      continue;
    }
    for (const auto& [path, sha] : parsed->files) used.insert(sha);
  }
  if (ec) return events::Error::internal("cannot list coverage reports: " + ec.message());
  if (auto status = blobs_.remove_unused(used); !status) return std::move(status).error();
  return removed;
}

}  // namespace vouch::store
