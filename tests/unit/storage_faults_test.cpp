#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <chrono>
#include <thread>

#include "faulty_file_system.hpp"
#include "store/database.hpp"
#include "store/event_log.hpp"
#include "store/log_end.hpp"
#include "temp_folder.hpp"

// A data folder whose disk fills or fails: writes stop at the first failure
// and are refused without reaching RocksDB, reads go on, nothing
// acknowledged is lost, and writes resume by themselves once space is back
// (after an I/O error, once reopened); the RocksDB WAL that failed is never
// written again, which Debian's RocksDB would abort on.
namespace vouch::store {
namespace {

using testing::FaultyFileSystem;
using Fault = FaultyFileSystem::Fault;

events::NewEvent event(int n) {
  return events::NewEvent{"evt_" + std::to_string(n), "Noted.v1", "acme", 1,
                          R"({"n":)" + std::to_string(n) + "}"};
}

AppendRequest request(const std::string& stream, int n) {
  return AppendRequest{stream, kAnyVersion, {event(n)}};
}

class FaultyStore : public ::testing::Test {
 protected:
  void SetUp() override { open(); }
  void open() {
    log_.reset();
    database_.reset();
    Database::Options options;
    options.env = env_.get();
    options.recovery_interval = std::chrono::milliseconds(50);
    auto database = Database::open(folder_.path() / "data", options);
    ASSERT_TRUE(database.ok()) << database.error().message;
    database_ = std::move(database).value();
    auto log = EventLog::open(*database_);
    ASSERT_TRUE(log.ok()) << log.error().message;
    log_ = std::move(log).value();
  }
  // Appends `count` events to `stream`, all of which must be acknowledged.
  void append_acknowledged(const std::string& stream, int count) {
    for (int i = 0; i < count; ++i) {
      auto appended = log_->append(request(stream, i));
      ASSERT_TRUE(appended.ok()) << appended.error().message;
      acknowledged_.emplace_back(appended->recorded[0].position, appended->recorded[0].event.id);
    }
  }
  bool wait_until_writable(std::chrono::seconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
      if (database_->health().writable) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }
  // Frees the disk: writes resume with one recovery, five more appends are
  // acknowledged, and after a reopen the log holds the five from before and
  // those five, none of the refused "during" stream.
  void expect_writes_resume_once_space_is_back() {
    fs_->heal();
    fs_->report_free(std::nullopt);
    ASSERT_TRUE(wait_until_writable(std::chrono::seconds(20))) << database_->health().problem;
    EXPECT_EQ(database_->health().recoveries, 1u);
    append_acknowledged("after", 5);
    open();
    EXPECT_EQ(log_->last_position(), 10u);
    EXPECT_EQ(log_->read_stream("during")->size(), 0u);
  }
  void flush_memtables() {
    for (auto* family :
         {database_->meta(), database_->events(), database_->streams(), database_->views()}) {
      ASSERT_TRUE(database_->db().Flush(rocksdb::FlushOptions(), family).ok());
    }
  }

  testing::TempFolder folder_;
  std::shared_ptr<FaultyFileSystem> fs_ = std::make_shared<FaultyFileSystem>();
  std::unique_ptr<rocksdb::Env> env_ = testing::env_over(fs_);
  std::unique_ptr<Database> database_;
  std::unique_ptr<EventLog> log_;
  std::vector<std::pair<std::uint64_t, std::string>> acknowledged_;  // position, event id
};

class StorageFaults : public FaultyStore,
                      public ::testing::WithParamInterface<std::tuple<Fault, unsigned>> {};

TEST_P(StorageFaults, WritesStopAtTheFirstFailureAndResumeWhenItIsGone) {
  const auto [fault, operations] = GetParam();
  append_acknowledged("before", 20);

  fs_->fail(fault, operations);
  auto failed = log_->append(request("during", 1));
  ASSERT_FALSE(failed.ok());
  const auto expected = fault == Fault::kNoSpace ? base::ErrorCode::kInsufficientStorage
                                                 : base::ErrorCode::kUnavailable;
  EXPECT_EQ(failed.error().code, expected) << failed.error().message;
  EXPECT_GT(failed.error().retry_after_seconds, 0u);
  const auto health = database_->health();
  EXPECT_FALSE(health.writable);
  EXPECT_EQ(health.out_of_space, fault == Fault::kNoSpace);
  EXPECT_EQ(health.faults, 1u);
  EXPECT_FALSE(health.problem.empty());

  // Refused at the gate from now on; reads go on.
  for (int i = 0; i < 5; ++i) {
    auto refused = log_->append(request("during", i));
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, expected);
  }
  auto before = log_->read_stream("before");
  ASSERT_TRUE(before.ok());
  EXPECT_EQ(before->size(), 20u);
  EXPECT_EQ(log_->last_position(), 20u);

  fs_->heal();
  if (fault == Fault::kIoError) {
    // RocksDB treats an I/O error on its write-ahead log as fatal: only a
    // new open resumes. Until then writes stay refused, and health says why.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_FALSE(database_->health().writable);
    EXPECT_NE(database_->health().problem.find("restart vouchd"), std::string::npos)
        << database_->health().problem;
    EXPECT_FALSE(log_->append(request("during", 9)).ok());
    open();
  } else {
    ASSERT_TRUE(wait_until_writable(std::chrono::seconds(20))) << database_->health().problem;
    EXPECT_EQ(database_->health().recoveries, 1u);
  }
  // The next event goes right after the log's end. A write whose fsync
  // failed was not acknowledged, yet its bytes may have reached the file and
  // come back when the folder is reopened (the usual fsync ambiguity): then
  // it is whole, and the log's end is after it.
  const auto during = log_->read_stream("during")->size();
  EXPECT_LE(during, 1u);
  if (operations == FaultyFileSystem::kAppend) {
    EXPECT_EQ(during, 0u);
  }
  auto resumed = log_->append(request("after", 1));
  ASSERT_TRUE(resumed.ok()) << resumed.error().message;
  EXPECT_EQ(resumed->recorded[0].position, 21u + during);
  append_acknowledged("after", 10);

  open();  // a restart
  auto end = read_log_end(*database_);
  ASSERT_TRUE(end.ok()) << end.error().message;
  EXPECT_EQ(*end, 31u + during);
  EXPECT_EQ(log_->read_stream("before")->size(), 20u);
  EXPECT_EQ(log_->read_stream("after")->size(), 11u);
  for (const auto& [position, id] : acknowledged_) {
    auto read = log_->read_all(position, 1);
    ASSERT_TRUE(read.ok());
    ASSERT_EQ(read->size(), 1u);
    EXPECT_EQ((*read)[0].event.id, id) << "position " << position << " lost or overwritten";
  }
}

INSTANTIATE_TEST_SUITE_P(
    AppendAndSync, StorageFaults,
    ::testing::Combine(::testing::Values(Fault::kNoSpace, Fault::kIoError),
                       ::testing::Values(FaultyFileSystem::kAppend, FaultyFileSystem::kSync)),
    [](const auto& info) {
      return std::string(std::get<0>(info.param) == Fault::kNoSpace ? "NoSpace" : "IoError") +
             (std::get<1>(info.param) == FaultyFileSystem::kAppend ? "OnAppend" : "OnSync");
    });

// With every memtable empty, DB::Resume() has nothing to flush and would
// keep writing to the failed write-ahead log (RocksDB asserts on that); the
// Database keeps a memtable entry so that resuming moves to a new log.
TEST_F(FaultyStore, FirstWriteAfterAFlushFailsAndWritesResumeOnANewLog) {
  append_acknowledged("before", 5);
  flush_memtables();
  fs_->fail(Fault::kNoSpace, FaultyFileSystem::kAppend);
  ASSERT_FALSE(log_->append(request("during", 1)).ok());
  fs_->heal();
  ASSERT_TRUE(wait_until_writable(std::chrono::seconds(20))) << database_->health().problem;
  append_acknowledged("after", 5);
  open();
  EXPECT_EQ(log_->last_position(), 10u);
  EXPECT_EQ(log_->read_stream("after")->size(), 5u);
}

// A background error (here a flush that cannot write its file) closes the
// gate too, though no append failed.
TEST_F(FaultyStore, AFailedBackgroundFlushStopsWritesUntilItRecovers) {
  append_acknowledged("before", 5);
  fs_->fail(Fault::kNoSpace, FaultyFileSystem::kAppend | FaultyFileSystem::kSync);
  EXPECT_FALSE(database_->db().Flush(rocksdb::FlushOptions(), database_->events()).ok());
  EXPECT_FALSE(database_->health().writable);
  auto refused = log_->append(request("during", 1));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, base::ErrorCode::kInsufficientStorage);
  fs_->heal();
  ASSERT_TRUE(wait_until_writable(std::chrono::seconds(20))) << database_->health().problem;
  append_acknowledged("after", 5);
  EXPECT_EQ(log_->last_position(), 10u);
}

// A disk that stays full: DB::Resume() waits until the free space covers
// what resuming writes, so nothing more is written to the full disk (the
// RocksDB write-ahead log that failed above all); once space is back,
// writes resume by themselves.
TEST_F(FaultyStore, ResumingWaitsForFreeSpaceAndWritesNothingToAFullDisk) {
  append_acknowledged("before", 5);
  fs_->fail(Fault::kNoSpace, FaultyFileSystem::kAll);
  ASSERT_FALSE(log_->append(request("during", 1)).ok());
  fs_->report_free(0);
  const auto injected = fs_->injected();
  // Twenty recovery intervals, and as many refused writes.
  for (int i = 0; i < 20; ++i) {
    auto refused = log_->append(request("during", i));
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, base::ErrorCode::kInsufficientStorage);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(fs_->injected(), injected) << "a write reached the full disk";
  const auto health = database_->health();
  EXPECT_FALSE(health.writable);
  EXPECT_EQ(health.free_bytes, 0u);
  EXPECT_GT(health.resume_reserve_bytes, 4u << 20);
  EXPECT_EQ(health.recoveries, 0u);

  expect_writes_resume_once_space_is_back();
}

// A disk with less free space than RocksDB may need next (a new write-ahead
// log, the memtables' flush): writes are refused before any reaches the
// disk, so RocksDB never fails and has nothing to resume from; once space
// is back, writes go on.
TEST_F(FaultyStore, ADiskTooFullToWriteSafelyRefusesWritesBeforeRocksDBFails) {
  append_acknowledged("before", 5);
  fs_->report_free(1 << 20);
  fs_->fail(Fault::kNoSpace, FaultyFileSystem::kAll);  // what reached the disk would fail
  for (int i = 0; i < 5; ++i) {
    auto refused = log_->append(request("during", i));
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, base::ErrorCode::kInsufficientStorage);
    EXPECT_EQ(refused.error().retry_after_seconds, 5u);
  }
  EXPECT_EQ(fs_->injected(), 0) << "a write reached the nearly full disk";
  const auto health = database_->health();
  EXPECT_FALSE(health.writable);
  EXPECT_TRUE(health.out_of_space);
  EXPECT_EQ(health.free_bytes, 1u << 20);
  EXPECT_GT(health.resume_reserve_bytes, 1u << 20);
  EXPECT_NE(health.problem.find("1 MiB free"), std::string::npos) << health.problem;

  expect_writes_resume_once_space_is_back();
}

// RocksDB renames CURRENT and its OPTIONS file when it opens a folder.
TEST_F(FaultyStore, ARenameThatFailsStopsTheOpenWithItsReason) {
  append_acknowledged("before", 5);
  log_.reset();
  database_.reset();
  fs_->fail(Fault::kIoError, FaultyFileSystem::kRename);
  Database::Options options;
  options.env = env_.get();
  auto refused = Database::open(folder_.path() / "data", options);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("injected EIO"), std::string::npos)
      << refused.error().message;
  fs_->heal();
  open();
  EXPECT_EQ(log_->last_position(), 5u);
  EXPECT_EQ(log_->read_stream("before")->size(), 5u);
}

}  // namespace
}  // namespace vouch::store
