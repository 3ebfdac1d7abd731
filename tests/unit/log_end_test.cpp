#include "store/log_end.hpp"

#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include "store/event_log.hpp"
#include "store/key_coding.hpp"
#include "store/log_repair.hpp"
#include "temp_folder.hpp"

// The log's end comes from the log: the last key of the events, checked
// against the stored counter and the stream heads. A difference refuses to
// open; `repair_log` rewrites only what the events prove.
namespace vouch::store {
namespace {

AppendRequest request(const std::string& stream, int n) {
  return AppendRequest{
      stream, kAnyVersion, {{"evt_" + std::to_string(n), "Noted.v1", "acme", 1, "{}"}}};
}

class LogEnd : public ::testing::Test {
 protected:
  void SetUp() override {
    database_ = std::move(Database::open(folder_.path()).value());
    auto log = EventLog::open(*database_);
    ASSERT_TRUE(log.ok()) << log.error().message;
    for (int i = 1; i <= 10; ++i) {
      ASSERT_TRUE((*log)->append(request(i % 2 ? "odd" : "even", i)).ok());
    }
    original_ = (*log)->read_all(1, 100).value();
  }
  void put(rocksdb::ColumnFamilyHandle* family, const std::string& key, std::uint64_t value) {
    ASSERT_TRUE(
        database_->db().Put(rocksdb::WriteOptions(), family, key, keys::encode_u64(value)).ok());
  }
  std::string open_error() {
    auto log = EventLog::open(*database_);
    return log.ok() ? std::string("(opened)") : log.error().message;
  }

  testing::TempFolder folder_;
  std::unique_ptr<Database> database_;
  std::vector<events::RecordedEvent> original_;
};

TEST_F(LogEnd, IsTheLastEventsPosition) {
  auto end = read_log_end(*database_);
  ASSERT_TRUE(end.ok()) << end.error().message;
  EXPECT_EQ(*end, 10u);
  auto report = repair_log(*database_, true);
  ASSERT_TRUE(report.ok());
  EXPECT_TRUE(report->damaged.empty());
  EXPECT_TRUE(report->derived.empty());
  EXPECT_FALSE(report->repaired);
}

TEST_F(LogEnd, ARolledBackCounterRefusesToOpenAndRepairRestoresItWithoutTouchingEvents) {
  put(database_->meta(), keys::last_position(), 5);
  const auto error = open_error();
  EXPECT_NE(error.find("the log ends at position 10 but the stored counter (meta "
                       "last-position) says 5"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("vouchd repair"), std::string::npos) << error;

  auto explained = repair_log(*database_, false);
  ASSERT_TRUE(explained.ok());
  ASSERT_EQ(explained->derived.size(), 1u);
  EXPECT_NE(explained->derived[0].find("is 5, the log ends at position 10"), std::string::npos)
      << explained->derived[0];
  EXPECT_FALSE(explained->repaired);
  EXPECT_NE(open_error(), "(opened)");  // explaining changed nothing

  auto repaired = repair_log(*database_, true);
  ASSERT_TRUE(repaired.ok());
  EXPECT_TRUE(repaired->repaired);
  auto log = EventLog::open(*database_);
  ASSERT_TRUE(log.ok()) << log.error().message;
  EXPECT_EQ((*log)->last_position(), 10u);
  auto next = (*log)->append(request("odd", 11));
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(next->recorded[0].position, 11u);
  EXPECT_EQ(next->stream_version, 6u);
  auto all = (*log)->read_all(1, 100).value();
  ASSERT_EQ(all.size(), 11u);
  for (std::size_t i = 0; i < original_.size(); ++i) {
    EXPECT_EQ(all[i].event.id, original_[i].event.id) << "position " << i + 1 << " overwritten";
  }
}

TEST_F(LogEnd, AStaleHeadOfTheLastStreamRefusesToOpen) {
  put(database_->streams(), keys::stream_head("even"), 3);
  const auto error = open_error();
  EXPECT_NE(error.find("version 5 of stream even, but the stream's stored head is 3"),
            std::string::npos)
      << error;
  auto repaired = repair_log(*database_, true);
  ASSERT_TRUE(repaired.ok());
  EXPECT_TRUE(repaired->repaired);
  EXPECT_EQ(open_error(), "(opened)");
}

TEST_F(LogEnd, AMissingEventIsDamageThatRepairExplainsAndLeavesAlone) {
  ASSERT_TRUE(
      database_->db().Delete(rocksdb::WriteOptions(), database_->events(), keys::event(4)).ok());
  put(database_->meta(), keys::last_position(), 7);
  auto report = repair_log(*database_, true);
  ASSERT_TRUE(report.ok());
  ASSERT_FALSE(report->damaged.empty());
  EXPECT_EQ(report->damaged[0], "positions 4 to 4 are missing");
  EXPECT_FALSE(report->repaired);
  std::string counter;
  ASSERT_TRUE(database_->db()
                  .Get(rocksdb::ReadOptions(), database_->meta(), keys::last_position(), &counter)
                  .ok());
  EXPECT_EQ(keys::decode_u64(counter), 7u);  // unchanged
}

// After a commit throws, the log rereads its end; while that reread fails
// (here: the counter disagrees with the events) appends are refused, and the
// position is never reset; the first reread that succeeds lets them in.
TEST_F(LogEnd, AFailedRereadRefusesAppendsUntilARereadSucceeds) {
  auto log = std::move(EventLog::open(*database_).value());
  struct Saboteur : CommitListener {
    Database* database = nullptr;
    bool armed = true;
    void on_committed(const std::vector<events::RecordedEvent>&) override {
      if (!armed) return;
      armed = false;
      ASSERT_TRUE(database->db()
                      .Put(rocksdb::WriteOptions(), database->meta(), keys::last_position(),
                           keys::encode_u64(2))
                      .ok());
      // Not a std::exception: the log's own listener guard lets it through,
      // so it reaches the writer's exception barrier.
      throw 42;
    }
  } saboteur;
  saboteur.database = database_.get();
  log->add_listener(&saboteur);

  auto thrown = log->append(request("odd", 11));
  ASSERT_FALSE(thrown.ok());
  EXPECT_NE(thrown.error().message.find("unknown until the log can be reread"), std::string::npos)
      << thrown.error().message;
  auto refused = log->append(request("odd", 12));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, base::ErrorCode::kUnavailable);
  EXPECT_EQ(log->last_position(), 11u);  // not reset

  put(database_->meta(), keys::last_position(), 11);
  auto accepted = log->append(request("odd", 12));
  ASSERT_TRUE(accepted.ok()) << accepted.error().message;
  EXPECT_EQ(accepted->recorded[0].position, 12u);
  EXPECT_EQ(log->read_all(1, 100)->size(), 12u);
}

}  // namespace
}  // namespace vouch::store
