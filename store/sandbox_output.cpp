#include "store/sandbox_output.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

namespace vouch::store {
namespace {

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

base::Error system_error(const std::string& what) {
  return base::Error::internal(what + ": " + std::strerror(errno));
}

struct Walk {
  const SandboxOutputLimits& limits;
  std::string_view what;
  const std::function<bool(const std::string&)>& wanted;
  std::map<std::string, std::string> files;  // path → content
  std::uint64_t bytes = 0;

  base::Error too_large() const {
    return base::Error::invalid(std::string(what) + " is larger than allowed");
  }
};

// Reads the regular file `name` of `dir`, never through a link.
base::Result<std::string> read_entry(int dir, const char* name, const std::string& path,
                                     const Walk& walk) {
  Fd fd(::openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) return system_error("cannot open " + path);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return system_error("cannot stat " + path);
  if (!S_ISREG(st.st_mode)) return base::Error::invalid(path + " is not a regular file");
  if (static_cast<std::uint64_t>(st.st_size) > walk.limits.max_bytes - walk.bytes) {
    return walk.too_large();
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
base::Status collect(int dir, const std::string& prefix, int depth, Walk& walk) {
  if (depth > walk.limits.max_depth) {
    return base::Error::invalid(std::string(walk.what) + " nests too deep");
  }
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
      if (auto status = collect(child.get(), path, depth + 1, walk); !status) return status;
    } else if (S_ISREG(st.st_mode)) {
      if (walk.wanted && !walk.wanted(path)) continue;
      if (walk.files.size() >= walk.limits.max_files) {
        return base::Error::invalid(std::string(walk.what) + " has too many files");
      }
      auto content = read_entry(dir, name.c_str(), path, walk);
      if (!content) return std::move(content).error();
      walk.bytes += content->size();
      walk.files.emplace(path, std::move(content).value());
    } else {
      return base::Error::invalid(std::string(walk.what) + " holds " + path +
                                  ", which is neither a file nor a folder");
    }
  }
  return base::ok_status();
}

}  // namespace

base::Result<std::map<std::string, std::string>> read_sandbox_output(
    const std::filesystem::path& folder, const SandboxOutputLimits& limits, std::string_view what,
    const std::function<bool(const std::string& path)>& wanted) {
  Fd dir(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (dir.get() < 0) {
    if (errno == ENOENT) return std::map<std::string, std::string>{};
    return system_error("cannot open " + folder.string());
  }
  Walk walk{limits, what, wanted, {}, 0};
  if (auto status = collect(dir.get(), "", 0, walk); !status) return std::move(status).error();
  return std::move(walk.files);
}

base::Result<std::optional<std::string>> read_sandbox_file(const std::filesystem::path& file,
                                                           std::uint64_t max_bytes,
                                                           std::string_view what) {
  const auto folder = file.parent_path();
  Fd dir(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir.get() < 0) return system_error("cannot open " + folder.string());
  const SandboxOutputLimits limits{1, max_bytes, 0};
  const std::function<bool(const std::string&)> all;
  const Walk walk{limits, what, all, {}, 0};
  const auto name = file.filename().string();
  struct stat st {};
  if (::fstatat(dir.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) return std::optional<std::string>{};
    return system_error("cannot stat " + file.string());
  }
  if (!S_ISREG(st.st_mode)) {
    return base::Error::invalid(std::string(what) + " is not a regular file");
  }
  auto content = read_entry(dir.get(), name.c_str(), file.string(), walk);
  if (!content) return std::move(content).error();
  return std::optional<std::string>{std::move(content).value()};
}

}  // namespace vouch::store
