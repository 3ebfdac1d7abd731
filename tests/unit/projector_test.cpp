// The projector never skips an event: a fold that fails is retried with the
// same event on the next commit, and after too many failures folding stops
// (reads stay consistent at the checkpoint) and problem() says why.
#include "store/projector.hpp"

#include <gtest/gtest.h>

#include <map>

#include "store/read_model_format.hpp"
#include "temp_folder.hpp"

namespace vouch::store {
namespace {

// Records the positions it folds; fails event `failing_position` the first
// `failures_left` times it sees it.
class FlakyProjection : public Projection {
 public:
  std::string_view name() const override { return "flaky"; }
  base::Status apply(const events::RecordedEvent& event, ViewWriter&) override {
    if (event.position == failing_position && failures_left > 0) {
      --failures_left;
      return base::Error::internal("cannot fold event " + std::to_string(event.position));
    }
    folded.push_back(event.position);
    return base::ok_status();
  }

  std::uint64_t failing_position = 0;
  int failures_left = 0;
  std::vector<std::uint64_t> folded;
};

class ProjectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    database_ = std::move(Database::open(folder_.path() / "data").value());
    ASSERT_TRUE(prepare_read_model_format(*database_).ok());
    log_ = std::move(EventLog::open(*database_).value());
    projector_ = std::make_unique<Projector>(*database_, std::vector<Projection*>{&projection_});
    ASSERT_TRUE(projector_->catch_up(*log_).ok());
    log_->add_listener(projector_.get());
  }
  void TearDown() override { log_.reset(); }

  void append(int count) {
    for (int i = 0; i < count; ++i) {
      ASSERT_TRUE(
          log_->append({"stream-" + std::to_string(++appended_),
                        kAnyVersion,
                        {{"evt_" + std::to_string(appended_), "thing.happened", "acme", 1, "{}"}}})
              .ok());
    }
  }

  static std::vector<std::uint64_t> positions(std::uint64_t from, std::uint64_t to) {
    std::vector<std::uint64_t> out;
    for (auto p = from; p <= to; ++p) out.push_back(p);
    return out;
  }

  testing::TempFolder folder_;
  std::unique_ptr<Database> database_;
  std::unique_ptr<EventLog> log_;
  FlakyProjection projection_;
  std::unique_ptr<Projector> projector_;
  int appended_ = 0;
};

TEST_F(ProjectorTest, AFailedEventIsFoldedAgainNotSkipped) {
  projection_.failing_position = 2;
  projection_.failures_left = 2;
  append(1);
  append(1);  // fails: the checkpoint stays at 1
  EXPECT_FALSE(projector_->healthy());
  EXPECT_NE(projector_->problem().find("cannot fold event 2"), std::string::npos)
      << projector_->problem();
  EXPECT_EQ(projector_->checkpoint(), 1u);
  append(1);  // catches up from 2: fails again
  EXPECT_EQ(projector_->checkpoint(), 1u);
  append(1);  // catches up from 2: 2, 3 and 4 in order
  EXPECT_TRUE(projector_->healthy());
  EXPECT_EQ(projector_->problem(), "");
  EXPECT_EQ(projector_->checkpoint(), 4u);
  EXPECT_EQ(projection_.folded, positions(1, 4));
  append(2);
  EXPECT_EQ(projection_.folded, positions(1, 6));
}

TEST_F(ProjectorTest, FoldingStopsAfterTooManyFailuresAndSaysWhy) {
  projection_.failing_position = 3;
  projection_.failures_left = 1000;
  append(2 + Projector::kMaxAttempts + 3);
  EXPECT_FALSE(projector_->healthy());
  EXPECT_EQ(projector_->checkpoint(), 2u);
  EXPECT_EQ(projection_.folded, positions(1, 2));  // nothing after the gap
  EXPECT_NE(projector_->problem().find("stopped after 5 attempts"), std::string::npos)
      << projector_->problem();
  EXPECT_EQ(projection_.failures_left, 1000 - Projector::kMaxAttempts);  // no more attempts

  // A restart tries again and, the fault gone, folds everything in order.
  projection_.failures_left = 0;
  Projector restarted(*database_, {&projection_});
  ASSERT_TRUE(restarted.catch_up(*log_).ok());
  EXPECT_EQ(projection_.folded, positions(1, 2 + Projector::kMaxAttempts + 3));
  EXPECT_TRUE(restarted.healthy());
}

}  // namespace
}  // namespace vouch::store
