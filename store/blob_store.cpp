#include "store/blob_store.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "base/digest.hpp"
#include "base/ids.hpp"

namespace vouch::store {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kTempPrefix = ".tmp-";

base::Error system_error(const std::string& what) {
  return base::Error::internal(what + ": " + std::strerror(errno));
}

bool is_sha256(const std::string& text) {
  return text.size() == 64 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

}  // namespace

base::Status write_durably(const fs::path& target, const std::string& content) {
  const fs::path temp = target.parent_path() / (std::string(kTempPrefix) + base::new_id(""));
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0640);
  if (fd < 0) return system_error("cannot create " + temp.string());
  std::size_t done = 0;
  while (done < content.size()) {
    const auto n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      auto error = system_error("cannot write " + temp.string());
      ::close(fd);
      return error;
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fdatasync(fd) != 0) {
    auto error = system_error("cannot sync " + temp.string());
    ::close(fd);
    return error;
  }
  ::close(fd);
  if (::rename(temp.c_str(), target.c_str()) != 0) {
    return system_error("cannot rename to " + target.string());
  }
  const int folder = ::open(target.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (folder < 0) return system_error("cannot open " + target.parent_path().string());
  const int synced = ::fsync(folder);
  ::close(folder);
  if (synced != 0) return system_error("cannot sync " + target.parent_path().string());
  return base::ok_status();
}

std::optional<std::string> read_whole(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream out;
  out << in.rdbuf();
  return std::move(out).str();
}

BlobStore::BlobStore(fs::path folder) : folder_(std::move(folder)) {
  std::error_code ec;
  fs::create_directories(folder_, ec);
}

base::Result<std::string> BlobStore::put(const std::string& content) {
  auto sha = base::sha256_hex(content);
  std::error_code ec;
  if (fs::exists(folder_ / sha, ec)) return sha;
  if (auto status = write_durably(folder_ / sha, content); !status) {
    return std::move(status).error();
  }
  return sha;
}

base::Result<std::optional<std::string>> BlobStore::get(const std::string& sha) const {
  if (!is_sha256(sha)) return std::optional<std::string>{};
  return read_whole(folder_ / sha);
}

base::Status BlobStore::remove_unused(const std::set<std::string>& used) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder_, ec)) {
    if (!used.contains(entry.path().filename().string())) fs::remove(entry.path(), ec);
  }
  if (ec) return base::Error::internal("cannot sweep " + folder_.string() + ": " + ec.message());
  return base::ok_status();
}

}  // namespace vouch::store
