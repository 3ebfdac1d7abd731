#include "store/event_log.hpp"

#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <atomic>
#include <future>
#include <stdexcept>
#include <thread>

#include "store/key_coding.hpp"
#include "temp_folder.hpp"

namespace vouch::store {
namespace {

events::NewEvent event(std::string type) {
  return events::NewEvent{"evt_" + type, std::move(type), "acme", 1, R"({"n":1})"};
}

AppendRequest request(std::string stream, std::uint64_t expected, std::size_t count = 1) {
  AppendRequest out{std::move(stream), expected, {}};
  for (std::size_t i = 0; i < count; ++i) out.events.push_back(event("E" + std::to_string(i)));
  return out;
}

class EventLogTest : public ::testing::Test {
 protected:
  void SetUp() override { open(); }
  void open() {
    log_.reset();
    database_.reset();
    database_ = std::move(Database::open(folder_.path()).value());
    log_ = std::move(EventLog::open(*database_).value());
  }

  testing::TempFolder folder_;
  std::unique_ptr<Database> database_;
  std::unique_ptr<EventLog> log_;
};

TEST_F(EventLogTest, AppendAssignsVersionsAndGlobalPositionsInOrder) {
  auto first = log_->append(request("a", kNoStream, 2));
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->stream_version, 2u);
  auto second = log_->append(request("b", kNoStream));
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->recorded[0].position, 3u);
  EXPECT_EQ(second->recorded[0].version, 1u);
  EXPECT_EQ(log_->last_position(), 3u);
}

TEST_F(EventLogTest, ReadAllOfKeepsWantedTypesAndAdvancesPastTheOthers) {
  ASSERT_TRUE(log_->append({"a", kAnyVersion, {event("Public"), event("Internal")}}).ok());
  // A stream name that looks like a type key must not fool the peek.
  ASSERT_TRUE(log_->append({R"(x,"type":"Public)", kAnyVersion, {event("Internal")}}).ok());
  ASSERT_TRUE(log_->append({"b", kAnyVersion, {event("Public")}}).ok());
  const auto wanted = [](std::string_view type) { return type == "Public"; };

  auto all = log_->read_all_of(1, 10, wanted);
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->events.size(), 2u);
  EXPECT_EQ(all->events[0].position, 1u);
  EXPECT_EQ(all->events[1].position, 4u);
  EXPECT_EQ(all->next_position, 5u);
  EXPECT_TRUE(all->exhausted);

  auto part = log_->read_all_of(2, 2, wanted);
  ASSERT_TRUE(part.ok());
  EXPECT_TRUE(part->events.empty());
  EXPECT_EQ(part->next_position, 4u);
  EXPECT_FALSE(part->exhausted);

  auto none = log_->read_all_of(5, 10, wanted);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->events.empty());
  EXPECT_EQ(none->next_position, 5u);
  EXPECT_TRUE(none->exhausted);
}

TEST_F(EventLogTest, AppendWithStaleVersionIsAConflict) {
  ASSERT_TRUE(log_->append(request("a", kNoStream)).ok());
  auto stale = log_->append(request("a", kNoStream));
  ASSERT_FALSE(stale.ok());
  EXPECT_EQ(stale.error().code, base::ErrorCode::kConflict);
  EXPECT_TRUE(log_->append(request("a", 1)).ok());
  EXPECT_TRUE(log_->append(request("a", kAnyVersion)).ok());
  EXPECT_EQ(log_->read_stream("a")->size(), 3u);
  EXPECT_EQ(log_->stats().conflicts, 1u);
}

TEST_F(EventLogTest, StreamsDoNotBleedIntoEachOther) {
  ASSERT_TRUE(log_->append(request("project-a", kNoStream)).ok());
  ASSERT_TRUE(log_->append(request("project-ab", kNoStream, 2)).ok());
  EXPECT_EQ(log_->read_stream("project-a")->size(), 1u);
  EXPECT_EQ(log_->read_stream("project-ab")->size(), 2u);
  EXPECT_EQ(log_->read_stream("project-ab", 2)->size(), 1u);
}

TEST_F(EventLogTest, AStreamReadsUpToItsHead) {
  EXPECT_TRUE(log_->read_stream("new")->empty());
  ASSERT_TRUE(log_->append(request("a", kNoStream, 3)).ok());
  EXPECT_EQ(log_->read_stream("a", 3)->size(), 1u);
  EXPECT_TRUE(log_->read_stream("a", 4)->empty());
  // The head is what tells a stream with events from one without.
  const std::string head = keys::stream_head("a");
  ASSERT_TRUE(database_->db().Delete(rocksdb::WriteOptions(), database_->streams(), head).ok());
  EXPECT_TRUE(log_->read_stream("a")->empty());
  ASSERT_TRUE(database_->db().Put(rocksdb::WriteOptions(), database_->streams(), head, "bad").ok());
  EXPECT_FALSE(log_->read_stream("a").ok());
}

TEST_F(EventLogTest, ReadAllPagesInLogOrder) {
  for (int i = 0; i < 10; ++i)
    ASSERT_TRUE(log_->append(request("s" + std::to_string(i), kNoStream)).ok());
  auto page = log_->read_all(4, 3);
  ASSERT_TRUE(page.ok());
  ASSERT_EQ(page->size(), 3u);
  EXPECT_EQ((*page)[0].position, 4u);
  EXPECT_EQ((*page)[2].position, 6u);
  EXPECT_EQ((*page)[2].stream, "s5");
}

TEST_F(EventLogTest, EverythingReadsBackAfterReopen) {
  ASSERT_TRUE(log_->append(request("a", kNoStream, 3)).ok());
  ASSERT_TRUE(log_->append(request("b", kNoStream)).ok());
  open();
  EXPECT_EQ(log_->last_position(), 4u);
  auto a = log_->read_stream("a");
  ASSERT_EQ(a->size(), 3u);
  EXPECT_EQ((*a)[2].event.type, "E2");
  // The head survived: appending with the old expectation conflicts.
  EXPECT_FALSE(log_->append(request("a", 2)).ok());
  auto next = log_->append(request("a", 3));
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(next->recorded[0].position, 5u);
}

TEST_F(EventLogTest, ConcurrentAppendsShareSyncsAndLoseNothing) {
  constexpr int kThreads = 8;
  constexpr int kPerThread = 50;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        if (!log_->append(request("t" + std::to_string(t), kAnyVersion)).ok()) ++failures;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(log_->last_position(), std::uint64_t{kThreads * kPerThread});
  const auto stats = log_->stats();
  EXPECT_EQ(stats.appends, std::uint64_t{kThreads * kPerThread});
  EXPECT_LT(stats.syncs, stats.appends);  // group commit: fewer fsyncs than appends
  for (int t = 0; t < kThreads; ++t) {
    auto stream = log_->read_stream("t" + std::to_string(t));
    ASSERT_EQ(stream->size(), std::size_t{kPerThread});
    for (std::size_t v = 0; v < stream->size(); ++v) EXPECT_EQ((*stream)[v].version, v + 1);
  }
}

TEST_F(EventLogTest, ListenersSeeCommitsBeforeAppendersHearBack) {
  struct Recorder : CommitListener {
    std::atomic<std::uint64_t> seen{0};
    void on_committed(const std::vector<events::RecordedEvent>& committed) override {
      seen = committed.back().position;
    }
  } recorder;
  log_.reset();
  log_ = std::move(EventLog::open(*database_).value());
  log_->add_listener(&recorder);
  auto result = log_->append(request("a", kNoStream));
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(recorder.seen.load(), result->recorded[0].position);
  log_.reset();  // the listener must not outlive... the log it listens to
}

// A listener or an appender's callback that throws is logged; the commit
// stands, every other appender hears back, and the writer goes on.
TEST_F(EventLogTest, ThrowingListenersAndCallbacksDoNotStopTheWriter) {
  struct Thrower : CommitListener {
    int calls = 0;
    void on_committed(const std::vector<events::RecordedEvent>&) override {
      if (++calls == 1) throw std::runtime_error("listener broke");
    }
  } thrower;
  log_.reset();
  log_ = std::move(EventLog::open(*database_).value());
  log_->add_listener(&thrower);
  auto first = log_->append(request("a", kNoStream));
  ASSERT_TRUE(first.ok()) << first.error().message;

  std::promise<void> thrown;
  log_->append_async(request("b", kNoStream), [&thrown](base::Result<AppendResult> result) {
    EXPECT_TRUE(result.ok());
    thrown.set_value();
    throw std::runtime_error("callback broke");
  });
  thrown.get_future().wait();
  auto after = log_->append(request("c", kNoStream));
  ASSERT_TRUE(after.ok()) << after.error().message;
  EXPECT_EQ(after->recorded[0].position, 3u);
  EXPECT_EQ(thrower.calls, 3);
  EXPECT_EQ(log_->read_stream("a")->size(), 1u);
  log_.reset();
}

}  // namespace
}  // namespace vouch::store
