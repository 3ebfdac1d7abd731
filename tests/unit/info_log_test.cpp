#include "store/info_log.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>

#include <fstream>
#include <string>
#include <vector>

#include "temp_folder.hpp"

// RocksDB's info log on a disk that fills: a line the file refuses is cut
// off whole and counted, and the next line is written once there is room.
namespace vouch::store {
namespace {

std::vector<std::string> lines_of(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Caps the size of files this process writes (RLIMIT_FSIZE): a write that
// crosses the cap is cut short, the next fails with EFBIG, as on a disk that
// fills mid-write.
class FileSizeCap {
 public:
  explicit FileSizeCap(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &saved_);
    previous_ = ::signal(SIGXFSZ, SIG_IGN);
    rlimit cap = saved_;
    cap.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &cap);
  }
  ~FileSizeCap() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    ::signal(SIGXFSZ, previous_);
  }

 private:
  rlimit saved_{};
  sighandler_t previous_ = SIG_DFL;
};

void log(rocksdb::Logger& logger, const std::string& text) {
  rocksdb::Log(rocksdb::InfoLogLevel::INFO_LEVEL, &logger, "%s", text.c_str());
}

TEST(InfoLog, ALineTheDiskRefusesIsDroppedWholeAndLoggingGoesOn) {
  testing::TempFolder folder;
  auto opened = InfoLog::open(folder.path());
  ASSERT_TRUE(opened.ok()) << opened.error().message;
  auto& info_log = **opened;
  log(info_log, "first");
  const auto size = info_log.GetLogFileSize();
  ASSERT_GT(size, 5u);
  {
    const FileSizeCap cap(size + 20);  // room for 20 bytes of a longer line
    log(info_log, std::string(200, 'x'));
    log(info_log, "refused as well");
  }
  EXPECT_EQ(info_log.dropped_lines(), 2u);
  EXPECT_EQ(info_log.GetLogFileSize(), size) << "a refused line left bytes behind";
  log(info_log, "after");

  const auto lines = lines_of(folder.path() / "LOG");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_TRUE(lines[0].ends_with(" first")) << lines[0];
  EXPECT_TRUE(lines[1].ends_with(" after")) << lines[1];
}

TEST(InfoLog, ThePreviousRunsLogIsKeptAsLogOld) {
  testing::TempFolder folder;
  {
    auto first = InfoLog::open(folder.path());
    ASSERT_TRUE(first.ok());
    log(**first, "run one");
  }
  auto second = InfoLog::open(folder.path());
  ASSERT_TRUE(second.ok());
  log(**second, "run two");
  ASSERT_EQ(lines_of(folder.path() / "LOG.old").size(), 1u);
  EXPECT_TRUE(lines_of(folder.path() / "LOG.old")[0].ends_with(" run one"));
  ASSERT_EQ(lines_of(folder.path() / "LOG").size(), 1u);
  EXPECT_TRUE(lines_of(folder.path() / "LOG")[0].ends_with(" run two"));
}

}  // namespace
}  // namespace vouch::store
