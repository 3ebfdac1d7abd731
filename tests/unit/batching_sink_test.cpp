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

}  // namespace
}  // namespace vouch::log
