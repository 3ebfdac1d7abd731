#include <fcntl.h>
#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <iostream>
#include <thread>

#include "api_fixture.hpp"

extern char** environ;

// The data folder under faults and upkeep, with the real vouchd: a disk that
// fills up (a size-limited tmpfs), a log whose counter was rolled back while
// vouchd was stopped, and a backup taken under load.
namespace vouch::testing {
namespace {

constexpr const char* kAdmin = VouchdProcess::kAdminKey;

HttpResponse call(std::uint16_t port, std::string method, std::string target,
                  std::string body = "") {
  std::string content_type = body.empty() ? "" : "application/json";
  HttpRequest request{std::move(method), std::move(target),       kAdmin,
                      std::move(body),   std::move(content_type), {}};
  return send(port, request);
}

HttpResponse create_project(std::uint16_t port, const std::string& name) {
  return call(port, "POST", "/v1/projects", R"({"name":")" + name + R"("})");
}

// The value of an unlabelled metric; -1 when absent.
double metric(std::uint16_t port, const std::string& name) {
  const auto body = call(port, "GET", "/metrics").body;
  const auto at = body.find("\n" + name + " ");
  return at == std::string::npos ? -1 : std::stod(body.substr(at + name.size() + 2));
}

void expect_all_present(std::uint16_t port, const std::vector<std::string>& ids) {
  for (const auto& id : ids) {
    ASSERT_EQ(call(port, "GET", "/v1/projects/" + id).status, 200u)
        << id << " was acknowledged but is not there";
  }
}

void expect_replay_verifies(const std::filesystem::path& data) {
  auto verify = run_vouchd({"replay", "--data", data.string(), "--verify"});
  EXPECT_EQ(verify.status, 0) << "replay --verify failed on " << data;
}

// A tmpfs of `megabytes` mounted at a new folder, unmounted at the end.
class Tmpfs {
 public:
  Tmpfs(const std::filesystem::path& at, int megabytes) : at_(at) {
    std::filesystem::create_directories(at_);
    const std::string options = "size=" + std::to_string(megabytes) + "m";
    if (::mount("tmpfs", at_.c_str(), "tmpfs", 0, options.c_str()) == 0) {
      mounted_ = true;
    } else {
      problem_ = std::string("mount -t tmpfs failed: ") + std::strerror(errno) +
                 " (the test needs root, as in CI)";
    }
  }
  ~Tmpfs() {
    if (mounted_) ::umount2(at_.c_str(), MNT_DETACH);
  }
  bool mounted() const { return mounted_; }
  const std::string& problem() const { return problem_; }
  std::uint64_t free_bytes() const {
    struct statvfs stats {};
    ::statvfs(at_.c_str(), &stats);
    return static_cast<std::uint64_t>(stats.f_bavail) * stats.f_frsize;
  }

 private:
  std::filesystem::path at_;
  bool mounted_ = false;
  std::string problem_;
};

// Fills a file with `bytes` of data (the disk's "ballast").
void write_ballast(const std::filesystem::path& file, std::uint64_t bytes) {
  std::ofstream out(file, std::ios::binary);
  const std::string chunk(1 << 20, 'x');
  while (bytes > 0 && out) {
    const auto size = std::min<std::uint64_t>(bytes, chunk.size());
    out.write(chunk.data(), static_cast<std::streamsize>(size));
    bytes -= size;
  }
}

// What vouchd's store and RocksDB said, for a failure message: vouchd's
// log lines from the store, and the end of the data folder's LOG.
std::string storage_evidence(const std::filesystem::path& data,
                             const std::filesystem::path& log_file) {
  std::string out = "vouchd's store log lines:\n";
  std::ifstream lines(log_file);
  for (std::string line; std::getline(lines, line);) {
    if (line.find(R"("component":"store")") != std::string::npos) out += "  " + line + "\n";
  }
  std::ifstream rocksdb_log(data / "LOG");
  std::deque<std::string> tail;
  for (std::string line; std::getline(rocksdb_log, line);) {
    tail.push_back(std::move(line));
    if (tail.size() > 80) tail.pop_front();
  }
  out += "the end of RocksDB's LOG:\n";
  for (const auto& line : tail) out += "  " + line + "\n";
  return out;
}

// A disk that fills under load: writes answer 507 with Retry-After once it
// has less room than RocksDB may need next (before RocksDB fails; a write
// that RocksDB fails on a full disk is the unit tests' storage_faults_test),
// reads and health checks go on, /readyz and /metrics say degraded, and the
// disk then stays full to its last byte a while without vouchd aborting.
// Writes resume by themselves once space is freed. Nothing acknowledged is
// lost across the fault and a restart, and the log file on the full disk
// holds only whole lines.
TEST(DiskFull, WritesStopAndResumeByThemselvesAndNothingAcknowledgedIsLost) {
  TempFolder folder;
  // Room for a preallocated write-ahead log (16 MiB memtables at the
  // default budget) and what resuming writes.
  Tmpfs disk(folder.path() / "disk", 128);
  if (!disk.mounted()) {
    // As root, or in CI (which runs as root), the test must run, not skip.
    if (::geteuid() == 0 || std::getenv("CI") != nullptr) FAIL() << disk.problem();
    GTEST_SKIP() << disk.problem();
  }
  const auto data = folder.path() / "disk" / "data";
  const auto log_file = folder.path() / "disk" / "vouchd.log";
  const auto ballast = folder.path() / "disk" / "ballast";
  std::vector<std::string> acknowledged;
  {
    VouchdProcess server(data, {"--no-rate-limits"}, {{}, log_file});
    for (int i = 0; i < 20; ++i) {
      auto created = create_project(server.port(), "before-" + std::to_string(i));
      ASSERT_EQ(created.status, 201u) << created.body;
      acknowledged.push_back(
          std::string(boost::json::parse(created.body).as_object()["id"].as_string()));
    }
    // Leave 26 MiB free, a few MiB above what vouchd keeps for RocksDB (a
    // new 17.6 MiB write-ahead log, the memtables and 4 MiB), then create
    // until writes are refused.
    write_ballast(ballast, disk.free_bytes() - (26u << 20));
    HttpResponse refused;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    for (int i = 0; std::chrono::steady_clock::now() < until; ++i) {
      auto created = create_project(server.port(), "filling-" + std::to_string(i));
      if (created.status == 201u) {
        acknowledged.push_back(
            std::string(boost::json::parse(created.body).as_object()["id"].as_string()));
        continue;
      }
      refused = created;
      break;
    }
    ASSERT_EQ(refused.status, 507u) << refused.body;
    EXPECT_EQ(boost::json::parse(refused.body).as_object()["code"], "insufficient_storage");
    EXPECT_FALSE(refused.header("retry-after").empty());
    // Refused at once from now on, without touching the disk.
    auto again = create_project(server.port(), "refused");
    EXPECT_EQ(again.status, 507u) << again.body;
    EXPECT_EQ(call(server.port(), "GET", "/healthz").status, 200u);
    auto ready = call(server.port(), "GET", "/readyz");
    EXPECT_EQ(ready.status, 503u);
    EXPECT_NE(ready.body.find("degraded"), std::string::npos) << ready.body;
    EXPECT_EQ(metric(server.port(), "vouch_storage_writable"), 0);
    EXPECT_EQ(metric(server.port(), "vouch_storage_out_of_space"), 1);
    expect_all_present(server.port(), acknowledged);  // reads go on

    // Then the disk fills to its last byte, as another program may fill it.
    const auto last_bytes = folder.path() / "disk" / "last-bytes";
    write_ballast(last_bytes, disk.free_bytes());
    EXPECT_LT(disk.free_bytes(), 64u << 10);

    // The disk stays full a while (RocksDB's own info log, flushed every
    // 5 s, aborted vouchd here): every write is answered, none accepted.
    int answered = 0;
    const auto full_until = std::chrono::steady_clock::now() + std::chrono::seconds(8);
    while (std::chrono::steady_clock::now() < full_until) {
      auto refused_again = create_project(server.port(), "while-full");
      ASSERT_EQ(refused_again.status, 507u) << refused_again.body;
      ++answered;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_EQ(call(server.port(), "GET", "/healthz").status, 200u);

    std::filesystem::remove(ballast);
    std::filesystem::remove(last_bytes);
    const auto freed = std::chrono::steady_clock::now();
    bool resumed = false;
    const auto resume_until = freed + std::chrono::seconds(60);
    while (!resumed && std::chrono::steady_clock::now() < resume_until) {
      auto created = create_project(server.port(), "after");
      if (created.status == 201u) {
        acknowledged.push_back(
            std::string(boost::json::parse(created.body).as_object()["id"].as_string()));
        resumed = true;
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
      }
    }
    ASSERT_TRUE(resumed) << "writes did not resume within 60 s of freeing space: "
                         << call(server.port(), "GET", "/readyz").body << "\n"
                         << storage_evidence(data, log_file);
    const auto resume_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::steady_clock::now() - freed)
                               .count();
    RecordProperty("acknowledged_before_full", static_cast<int>(acknowledged.size()) - 1);
    RecordProperty("refused_while_full", answered);
    RecordProperty("resume_ms", static_cast<int>(resume_ms));
    std::cout << "disk full: " << acknowledged.size() - 1 << " creates acknowledged before, "
              << answered << " answered 507 over 8 s, writes resumed " << resume_ms
              << " ms after space was freed\n";
    EXPECT_EQ(call(server.port(), "GET", "/readyz").status, 200u);
    EXPECT_EQ(metric(server.port(), "vouch_storage_writable"), 1);
    EXPECT_GE(metric(server.port(), "vouch_storage_recoveries_total"), 1);
    EXPECT_EQ(server.terminate(), 0);  // no abort
  }
  {
    VouchdProcess restarted(data, {"--no-rate-limits"});
    expect_all_present(restarted.port(), acknowledged);
    EXPECT_EQ(restarted.terminate(), 0);
  }
  expect_replay_verifies(data);
  // Lines dropped while the disk was full went whole: each line is JSON.
  std::ifstream lines(log_file);
  std::size_t count = 0;
  for (std::string line; std::getline(lines, line); ++count) {
    boost::system::error_code ec;
    boost::json::parse(line, ec);
    EXPECT_FALSE(ec) << "torn log line " << count + 1 << ": " << line;
  }
  EXPECT_GT(count, 0u);
}

// vouchd started on `data` and waited for: its exit status, or -1 when it
// was still serving after `limit` (then killed). Its stderr goes to `errors`.
int run_server_until_exit(const std::filesystem::path& data, const std::filesystem::path& errors,
                          std::chrono::seconds limit) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errors.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> args{VOUCHD_PATH, "--data", data.string(), "--listen", "127.0.0.1:0"};
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, VOUCHD_PATH, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -2;
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid)
      return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  return -1;
}

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The counter is rolled back while vouchd is stopped: vouchd refuses to
// start, naming what differs; `vouchd repair` rewrites the counter from the
// events; vouchd starts, and no event was overwritten.
TEST(LogEnd, ARolledBackCounterRefusesToStartAndRepairFindsTheTrueEnd) {
  TempFolder folder;
  const auto data = folder.path() / "data";
  std::vector<std::string> acknowledged;
  {
    VouchdProcess server(data);
    for (int i = 0; i < 10; ++i) {
      auto created = create_project(server.port(), "p-" + std::to_string(i));
      ASSERT_EQ(created.status, 201u);
      acknowledged.push_back(
          std::string(boost::json::parse(created.body).as_object()["id"].as_string()));
    }
    EXPECT_EQ(server.terminate(), 0);
  }
  std::uint64_t end = 0;
  {
    // Roll the counter back by ten, as the operator's mishap did.
    std::vector<rocksdb::ColumnFamilyDescriptor> families{{rocksdb::kDefaultColumnFamilyName, {}},
                                                          {"events", {}},
                                                          {"streams", {}},
                                                          {"views", {}},
                                                          {"secrets", {}}};
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open({}, data.string(), families, &handles, &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    std::string value;
    ASSERT_TRUE(db->Get({}, handles[0], "last-position", &value).ok());
    for (unsigned char byte : value) end = (end << 8) | byte;
    ASSERT_GT(end, 10u);
    std::string rolled_back(8, '\0');
    for (int i = 0; i < 8; ++i)
      rolled_back[7 - i] = static_cast<char>(((end - 10) >> (8 * i)) & 0xff);
    ASSERT_TRUE(db->Put({}, handles[0], "last-position", rolled_back).ok());
    for (auto* handle : handles) db->DestroyColumnFamilyHandle(handle);
    ASSERT_TRUE(db->Close().ok());
  }
  const auto errors = folder.path() / "refused.log";
  EXPECT_EQ(run_server_until_exit(data, errors, std::chrono::seconds(60)), 1)
      << "vouchd started on a log whose counter was rolled back";
  const auto said = read_text(errors);
  EXPECT_NE(
      said.find("the log ends at position " + std::to_string(end) +
                " but the stored counter (meta last-position) says " + std::to_string(end - 10)),
      std::string::npos)
      << said;

  auto repaired = run_vouchd({"repair", "--data", data.string()});
  EXPECT_EQ(repaired.status, 0) << repaired.out;
  EXPECT_NE(repaired.out.find("rewritten from the events"), std::string::npos) << repaired.out;
  {
    VouchdProcess server(data);
    expect_all_present(server.port(), acknowledged);
    ASSERT_EQ(create_project(server.port(), "after-repair").status, 201u);
    expect_all_present(server.port(), acknowledged);  // nothing overwritten
    EXPECT_EQ(server.terminate(), 0);
  }
  expect_replay_verifies(data);
}

// A backup taken while clients create projects: the copy starts as a data
// folder of its own, holds every create acknowledged before the backup
// began, and its read models equal a rebuild from its log.
TEST(Backup, ALiveBackupUnderLoadRestoresEveryWriteAcknowledgedBeforeIt) {
  TempFolder folder;
  const auto data = folder.path() / "data";
  const auto copy = folder.path() / "copy";
  std::vector<std::string> before;
  {
    VouchdProcess server(data);
    ProjectCreators creators(server.port(), 4, 100000);
    for (int waited = 0; waited < 600 && creators.acknowledged().size() < 200; ++waited) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    before = creators.acknowledged();
    ASSERT_GE(before.size(), 50u);
    const auto started = std::chrono::steady_clock::now();
    auto backup = run_vouchd({"backup", "--data", data.string(), "--to", copy.string()});
    const auto backup_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::steady_clock::now() - started)
                               .count();
    const auto during = creators.acknowledged().size();
    creators.stop();
    ASSERT_EQ(backup.status, 0) << backup.out;
    EXPECT_NE(backup.out.find("verified"), std::string::npos) << backup.out;
    EXPECT_GT(creators.acknowledged().size(), before.size()) << "no load during the backup";
    EXPECT_GE(during, before.size());
    std::uintmax_t bytes = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(copy)) {
      if (entry.is_regular_file()) bytes += entry.file_size();
    }
    std::cout << "backup under load: " << bytes / 1024 << " KiB in " << backup_ms << " ms, "
              << during - before.size() << " creates acknowledged while it ran\n";
    EXPECT_EQ(server.terminate(), 0);
  }
  {
    // The copy's data keys are wrapped by the original's master key.
    VouchdProcess restored(copy, {"--secrets-key-file", secrets_key_file_of(data).string()});
    expect_all_present(restored.port(), before);
    EXPECT_EQ(create_project(restored.port(), "on-the-copy").status, 201u);
    EXPECT_EQ(restored.terminate(), 0);
  }
  expect_replay_verifies(copy);

  // A second backup to the same place is refused, and the copy is untouched.
  auto again = run_vouchd({"backup", "--data", data.string(), "--to", copy.string()});
  EXPECT_NE(again.status, 0);
}

}  // namespace
}  // namespace vouch::testing
