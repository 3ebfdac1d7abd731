#include "log/batching_sink.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <spdlog/logger.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>

namespace vouch::log {
namespace {

// A logger writing through a BatchingSink into a pipe the test reads.
class BatchingSinkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(::pipe2(fds_, O_CLOEXEC), 0);
    ::fcntl(fds_[0], F_SETFL, O_NONBLOCK);
    logger_ = std::make_unique<spdlog::logger>("test", std::make_shared<BatchingSink>(fds_[1]));
    logger_->set_pattern("%v");
  }
  void TearDown() override {
    logger_.reset();
    ::close(fds_[0]);
    ::close(fds_[1]);
  }

  // What the pipe holds after waiting up to `wait` for anything to arrive.
  std::string read_pipe(std::chrono::milliseconds wait) {
    pollfd ready{fds_[0], POLLIN, 0};
    ::poll(&ready, 1, static_cast<int>(wait.count()));
    std::string out;
    char chunk[4096];
    for (ssize_t got; (got = ::read(fds_[0], chunk, sizeof chunk)) > 0;) out.append(chunk, got);
    return out;
  }

  int fds_[2] = {-1, -1};
  std::unique_ptr<spdlog::logger> logger_;
};

TEST_F(BatchingSinkTest, FlushWritesEveryLineInOrder) {
  std::string expected;
  for (int i = 0; i < 1000; ++i) {
    logger_->info("line {}", i);
    expected += "line " + std::to_string(i) + "\n";
  }
  logger_->flush();
  EXPECT_EQ(read_pipe(std::chrono::milliseconds(0)), expected);
}

TEST_F(BatchingSinkTest, InfoLinesArriveWithoutAFlush) {
  logger_->info("quiet");
  EXPECT_EQ(read_pipe(std::chrono::seconds(5)), "quiet\n");
}

TEST_F(BatchingSinkTest, WarningsAndErrorsAreWrittenWithoutWaitingForTheBatch) {
  // Info lines wait for the next batch, here an hour away.
  logger_ = std::make_unique<spdlog::logger>(
      "test", std::make_shared<BatchingSink>(fds_[1], std::chrono::hours(1)));
  logger_->set_pattern("%v");
  logger_->info("routine");
  EXPECT_EQ(read_pipe(std::chrono::milliseconds(200)), "");
  logger_->warn("odd");
  EXPECT_EQ(read_pipe(std::chrono::seconds(5)), "routine\nodd\n");
  logger_->info("routine again");
  logger_->error("broken");
  EXPECT_EQ(read_pipe(std::chrono::seconds(5)), "routine again\nbroken\n");
}

TEST_F(BatchingSinkTest, DestroyingTheSinkWritesWhatIsLeft) {
  logger_->info("last words");
  logger_.reset();
  EXPECT_EQ(read_pipe(std::chrono::milliseconds(0)), "last words\n");
}

// A full disk (/dev/full answers every write with ENOSPC): lines are dropped
// whole and counted, and logging never blocks.
TEST(BatchingSinkFaults, LinesTheDescriptorRefusesAreDroppedAndCounted) {
  const int full = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
  ASSERT_GE(full, 0);
  auto sink = std::make_shared<BatchingSink>(full);
  spdlog::logger logger("test", sink);
  logger.set_pattern("%v");
  for (int i = 0; i < 100; ++i) logger.info("line {}", i);
  logger.flush();
  EXPECT_EQ(sink->dropped_lines(), 100u);
  ::close(full);
}

// A descriptor that takes part of a batch (a full pipe here, a file system
// filling up in production): the line it cut is finished before anything
// else, later lines it refuses are dropped whole, and what arrives is whole
// lines only.
TEST_F(BatchingSinkTest, ALineCutShortIsFinishedFirstAndNothingIsTorn) {
  ASSERT_EQ(::fcntl(fds_[1], F_SETPIPE_SZ, 4096), 4096);
  ::fcntl(fds_[1], F_SETFL, O_NONBLOCK);
  auto sink = std::make_shared<BatchingSink>(fds_[1]);
  logger_ = std::make_unique<spdlog::logger>("test", sink);
  logger_->set_pattern("%v");
  const auto line = [](int i) { return std::to_string(i % 10) + std::string(998, 'a' + i % 26); };
  constexpr int kLines = 20;
  for (int i = 0; i < kLines; ++i) logger_->info(line(i));
  logger_->flush();
  std::string received = read_pipe(std::chrono::milliseconds(0));
  EXPECT_GT(sink->dropped_lines(), 0u);
  logger_->info("after");
  logger_->flush();
  received += read_pipe(std::chrono::milliseconds(0));

  std::size_t whole = 0;
  std::size_t start = 0;
  int next = 0;
  for (auto end = received.find('\n'); end != std::string::npos;
       start = end + 1, end = received.find('\n', start)) {
    const auto text = received.substr(start, end - start);
    if (text == "after") {
      EXPECT_EQ(end + 1, received.size()) << "\"after\" is not the last line";
      continue;
    }
    while (next < kLines && line(next) != text) ++next;  // lines keep their order
    ASSERT_LT(next, kLines) << "a torn or unknown line: " << text.substr(0, 40);
    ++next;
    ++whole;
  }
  EXPECT_EQ(start, received.size()) << "the last line is cut";
  EXPECT_EQ(whole + sink->dropped_lines(), std::size_t{kLines});
  EXPECT_NE(received.find("after\n"), std::string::npos);
}

}  // namespace
}  // namespace vouch::log
