#include "secrets/master_key.hpp"

#include <fcntl.h>
#include <openssl/crypto.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace vouch::secrets {
namespace {

std::string errno_text() { return std::strerror(errno); }

// Closes a descriptor when it goes out of scope.
struct Descriptor {
  int fd = -1;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

base::Result<std::filesystem::path> default_master_key_path() {
  if (const char* config = std::getenv("XDG_CONFIG_HOME"); config && *config) {
    return std::filesystem::path(config) / "vouch" / "secrets.key";
  }
  if (const char* home = std::getenv("HOME"); home && *home) {
    return std::filesystem::path(home) / ".config" / "vouch" / "secrets.key";
  }
  return base::Error::invalid(
      "neither XDG_CONFIG_HOME nor HOME is set: pass --secrets-key-file PATH (outside the data "
      "folder)");
}

base::Status check_outside_data_folder(const std::filesystem::path& key_file,
                                       const std::filesystem::path& data_folder) {
  std::error_code ec;
  const auto key = std::filesystem::weakly_canonical(std::filesystem::absolute(key_file), ec);
  const auto data = std::filesystem::weakly_canonical(std::filesystem::absolute(data_folder), ec);
  if (ec) return base::ok_status();  // the open that follows names the real problem
  const auto relative = key.lexically_relative(data);
  const bool inside = !relative.empty() && *relative.begin() != "..";
  if (inside) {
    return base::Error::invalid("the secrets key file " + key_file.string() +
                                " is inside the data folder " + data_folder.string() +
                                ": keep it elsewhere, so that a copy of the folder does not "
                                "carry the key that opens its secrets");
  }
  return base::ok_status();
}

base::Result<Key> read_master_key(const std::filesystem::path& path) {
  Descriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW)};
  if (file.fd < 0) {
    if (errno == ENOENT) {
      return base::Error::not_found("the secrets key file " + path.string() + " does not exist");
    }
    return base::Error::invalid("cannot open the secrets key file " + path.string() + ": " +
                                errno_text());
  }
  struct stat status {};
  if (::fstat(file.fd, &status) != 0) {
    return base::Error::invalid("cannot stat the secrets key file " + path.string() + ": " +
                                errno_text());
  }
  if (!S_ISREG(status.st_mode)) {
    return base::Error::invalid("the secrets key file " + path.string() + " is not a regular file");
  }
  if ((status.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(status.st_mode & 07777));
    return base::Error::invalid("the secrets key file " + path.string() + " has mode " + mode +
                                ": group and others must have no access (chmod 600 " +
                                path.string() + ")");
  }
  if (status.st_size != static_cast<off_t>(kKeyBytes)) {
    return base::Error::invalid("the secrets key file " + path.string() + " holds " +
                                std::to_string(status.st_size) + " bytes; a key is exactly " +
                                std::to_string(kKeyBytes) + " random bytes");
  }
  std::string bytes(kKeyBytes, '\0');
  std::size_t read_so_far = 0;
  while (read_so_far < bytes.size()) {
    const auto got = ::read(file.fd, bytes.data() + read_so_far, bytes.size() - read_so_far);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      return base::Error::invalid("cannot read the secrets key file " + path.string() + ": " +
                                  (got < 0 ? errno_text() : "it is shorter than it says"));
    }
    read_so_far += static_cast<std::size_t>(got);
  }
  auto key = Key::from_bytes(bytes);
  OPENSSL_cleanse(bytes.data(), bytes.size());
  return key;
}

base::Result<Key> create_master_key(const std::filesystem::path& path) {
  std::error_code ec;
  const auto parent = path.parent_path();
  if (!parent.empty() && !std::filesystem::exists(parent, ec)) {
    std::filesystem::create_directories(parent, ec);
    if (ec) {
      return base::Error::invalid("cannot create " + parent.string() +
                                  " for the secrets key: " + ec.message());
    }
    std::filesystem::permissions(parent, std::filesystem::perms::owner_all, ec);
  }
  auto key = Key::random();
  if (!key) return key;
  Descriptor file{::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600)};
  if (file.fd < 0) {
    return base::Error::invalid("cannot create the secrets key file " + path.string() + ": " +
                                errno_text());
  }
  const auto bytes = key->view();
  std::size_t written = 0;
  while (written < bytes.size()) {
    const auto put = ::write(file.fd, bytes.data() + written, bytes.size() - written);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) {
      const auto reason = errno_text();
      ::unlink(path.c_str());
      return base::Error::invalid("cannot write the secrets key file " + path.string() + ": " +
                                  reason);
    }
    written += static_cast<std::size_t>(put);
  }
  if (::fsync(file.fd) != 0) {
    const auto reason = errno_text();
    ::unlink(path.c_str());
    return base::Error::invalid("cannot sync the secrets key file " + path.string() + ": " +
                                reason);
  }
  // The file's name is durable once its folder is synced.
  Descriptor folder{
      ::open(parent.empty() ? "." : parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
  if (folder.fd >= 0) ::fsync(folder.fd);
  return key;
}

}  // namespace vouch::secrets
