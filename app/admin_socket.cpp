#include "app/admin_socket.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "log/log.hpp"
#include "store/backup.hpp"

namespace vouch::app {
namespace {

constexpr std::size_t kMaxRequestBytes = 4096;
constexpr int kRequestTimeoutMs = 5000;

base::Result<sockaddr_un> address_of(const std::filesystem::path& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const auto text = path.string();
  if (text.size() >= sizeof address.sun_path) {
    return base::Error::invalid("the socket path " + text + " is too long for a Unix socket");
  }
  std::memcpy(address.sun_path, text.c_str(), text.size() + 1);
  return address;
}

std::string errno_text(const std::string& what) { return what + ": " + std::strerror(errno); }

// Reads one line (without its '\n') within the timeout; empty on failure.
std::string read_line(int fd) {
  std::string line;
  char chunk[512];
  while (line.size() < kMaxRequestBytes) {
    pollfd ready{fd, POLLIN, 0};
    if (::poll(&ready, 1, kRequestTimeoutMs) <= 0) return {};
    const auto got = ::read(fd, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return {};
    line.append(chunk, static_cast<std::size_t>(got));
    if (const auto end = line.find('\n'); end != std::string::npos) return line.substr(0, end);
  }
  return {};
}

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const auto written = ::send(fd, text.data() + done, text.size() - done, MSG_NOSIGNAL);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;
    done += static_cast<std::size_t>(written);
  }
}

}  // namespace

base::Result<std::unique_ptr<AdminSocket>> AdminSocket::start(store::Database& database) {
  const auto path = path_in(database.folder());
  auto address = address_of(path);
  if (!address) return std::move(address).error();
  // The database lock is ours: a socket file left here belongs to a process
  // that is gone.
  ::unlink(path.c_str());
  const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listener < 0) return base::Error::internal(errno_text("socket"));
  const auto old_mask = ::umask(0177);  // created 0600
  const int bound = ::bind(listener, reinterpret_cast<const sockaddr*>(&*address), sizeof *address);
  ::umask(old_mask);
  if (bound != 0 || ::listen(listener, 4) != 0) {
    const auto error = errno_text("cannot listen on " + path.string());
    ::close(listener);
    return base::Error::internal(error);
  }
  int stop[2];
  if (::pipe2(stop, O_CLOEXEC) != 0) {
    ::close(listener);
    return base::Error::internal(errno_text("pipe"));
  }
  return std::unique_ptr<AdminSocket>(new AdminSocket(database, listener, stop[0], stop[1]));
}

AdminSocket::AdminSocket(store::Database& database, int listener, int stop_read, int stop_write)
    : database_(database),
      path_(path_in(database.folder())),
      listener_(listener),
      stop_read_(stop_read),
      stop_write_(stop_write),
      thread_([this] { serve(); }) {}

AdminSocket::~AdminSocket() {
  // A pipe, not a socket: write(), not send().
  while (::write(stop_write_, "x", 1) < 0 && errno == EINTR) {
  }
  thread_.join();
  ::close(listener_);
  ::close(stop_read_);
  ::close(stop_write_);
  ::unlink(path_.c_str());
}

void AdminSocket::serve() {
  for (;;) {
    pollfd ready[2] = {{listener_, POLLIN, 0}, {stop_read_, POLLIN, 0}};
    if (::poll(ready, 2, -1) < 0) {
      if (errno == EINTR) continue;
      log::error("admin", errno_text("the admin socket stopped"));
      return;
    }
    if (ready[1].revents != 0) return;
    const int client = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    const auto request = read_line(client);
    write_all(client, answer(request) + "\n");
    ::close(client);
  }
}

std::string AdminSocket::answer(const std::string& request) {
  constexpr std::string_view kBackup = "backup ";
  if (request.rfind(kBackup, 0) != 0) return "error unknown request";
  const std::filesystem::path to(request.substr(kBackup.size()));
  if (!to.is_absolute()) return "error the backup folder must be an absolute path";
  log::info("admin", "backup of the data folder to " + to.string() + " requested");
  auto report = store::back_up(database_, to);
  if (!report) {
    log::error("admin", "backup to " + to.string() + " failed: " + report.error().message);
    return "error " + report.error().message;
  }
  log::info("admin", "backup to " + to.string() + " verified; its log ends at position " +
                         std::to_string(report->last_position));
  return "ok " + std::to_string(report->last_position) + " " + std::to_string(report->files);
}

base::Result<std::string> ask_admin_socket(const std::filesystem::path& data,
                                           const std::string& request) {
  auto address = address_of(AdminSocket::path_in(data));
  if (!address) return std::move(address).error();
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return base::Error::internal(errno_text("socket"));
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&*address), sizeof *address) != 0) {
    const auto error = errno_text("no vouchd answers at " + AdminSocket::path_in(data).string());
    ::close(fd);
    return base::Error::unavailable(error);
  }
  write_all(fd, request + "\n");
  std::string line;
  char chunk[512];
  for (ssize_t got; (got = ::read(fd, chunk, sizeof chunk)) != 0;) {
    if (got < 0) {
      if (errno == EINTR) continue;
      break;
    }
    line.append(chunk, static_cast<std::size_t>(got));
  }
  ::close(fd);
  if (const auto end = line.find('\n'); end != std::string::npos) line.resize(end);
  if (line.empty()) return base::Error::internal("vouchd closed the admin socket without answer");
  return line;
}

}  // namespace vouch::app
