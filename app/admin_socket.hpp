#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "base/result.hpp"
#include "store/database.hpp"

namespace vouch::app {

// A Unix socket in the data folder (`admin.sock`, mode 0600) through which
// commands run on the same machine reach the vouchd that holds the folder's
// database lock: `vouchd backup` asks it for a backup there. Whoever may
// write the data folder may use it; nobody else can connect.
//
// One request per connection, one line each way:
//   backup <absolute path>\n  ->  ok <last position> <files>\n  |  error <message>\n
// Requests are served one at a time on a thread of the socket's own, never
// on the server's io threads.
class AdminSocket {
 public:
  // Listens at `<database.folder()>/admin.sock` (a stale socket file from a
  // process that died is replaced). REQUIRES: `database` outlives the socket.
  [[nodiscard]] static base::Result<std::unique_ptr<AdminSocket>> start(store::Database& database);
  ~AdminSocket();  // stops serving and removes the socket file
  AdminSocket(const AdminSocket&) = delete;
  AdminSocket& operator=(const AdminSocket&) = delete;

  static std::filesystem::path path_in(const std::filesystem::path& data) {
    return data / "admin.sock";
  }

 private:
  AdminSocket(store::Database& database, int listener, int stop_read, int stop_write);
  void serve();
  std::string answer(const std::string& request);

  store::Database& database_;
  std::filesystem::path path_;
  int listener_;
  int stop_read_, stop_write_;  // a pipe: the destructor writes to wake serve()
  std::thread thread_;
};

// Sends one request to the vouchd serving `data`; its answer line, or
// kUnavailable when no vouchd listens there.
[[nodiscard]] base::Result<std::string> ask_admin_socket(const std::filesystem::path& data,
                                                         const std::string& request);

}  // namespace vouch::app
