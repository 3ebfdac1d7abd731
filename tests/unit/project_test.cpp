#include "events/project.hpp"

#include <gtest/gtest.h>

namespace vouch::events {
namespace {

// Given/When/Then over the pure rules of the project aggregate.

ProjectState given(const std::vector<ProjectEvent>& history) {
  ProjectState state;
  for (const auto& event : history) state = evolve(std::move(state), event);
  return state;
}

ProjectCreated created(std::string account = "acme") {
  return ProjectCreated{
      Project{"prj_1", std::move(account), "shop", "git@x:shop.git", "jest", 80, 1000, 1000}};
}

CreateProject create_command() {
  return CreateProject{"prj_1", "acme", "shop", "git@x:shop.git", std::nullopt, std::nullopt, 1000};
}

TEST(ProjectDecide, CreateOnEmptyStreamRecordsDefaults) {
  auto events = decide(given({}), create_command());
  ASSERT_TRUE(events.ok());
  ASSERT_EQ(events->size(), 1u);
  const auto& project = std::get<ProjectCreated>(events->front()).project;
  EXPECT_EQ(project.framework, "jest");
  EXPECT_EQ(project.threshold, 80.0);
  EXPECT_EQ(project.created, 1000);
  EXPECT_EQ(project.updated, 1000);
}

TEST(ProjectDecide, CreateOverExistingProjectIsAConflict) {
  auto events = decide(given({created()}), create_command());
  ASSERT_FALSE(events.ok());
  EXPECT_EQ(events.error().code, base::ErrorCode::kConflict);
}

TEST(ProjectDecide, CreateWithUnknownFrameworkNamesTheSupportedOnes) {
  auto command = create_command();
  command.framework = "mocha";
  auto events = decide(given({}), command);
  ASSERT_FALSE(events.ok());
  EXPECT_EQ(events.error().code, base::ErrorCode::kInvalid);
  ASSERT_EQ(events.error().fields.size(), 1u);
  EXPECT_EQ(events.error().fields[0].field, "config.framework");
  EXPECT_NE(events.error().fields[0].message.find("jest"), std::string::npos);
}

TEST(ProjectDecide, CreateRejectsEveryBadFieldAtOnce) {
  auto command = create_command();
  command.name = "";
  command.threshold = 100.5;
  auto events = decide(given({}), command);
  ASSERT_FALSE(events.ok());
  EXPECT_EQ(events.error().fields.size(), 2u);
}

TEST(ProjectDecide, ThresholdBoundsAreInclusive) {
  for (double threshold : {0.0, 100.0}) {
    auto command = create_command();
    command.threshold = threshold;
    EXPECT_TRUE(decide(given({}), command).ok()) << threshold;
  }
  auto command = create_command();
  command.threshold = -0.1;
  EXPECT_FALSE(decide(given({}), command).ok());
}

TEST(ProjectDecide, UpdateRecordsOnlyWhatChanges) {
  UpdateProject update{"prj_1", "acme", {std::string("shop"), std::nullopt, 90.0}, 2000};
  auto events = decide(given({created()}), update);
  ASSERT_TRUE(events.ok());
  ASSERT_EQ(events->size(), 1u);
  const auto& updated = std::get<ProjectUpdated>(events->front());
  EXPECT_FALSE(updated.changes.name.has_value());
  EXPECT_EQ(updated.changes.threshold, 90.0);
}

TEST(ProjectDecide, UpdateThatChangesNothingRecordsNothing) {
  UpdateProject update{"prj_1", "acme", {std::string("shop"), std::string("jest"), 80.0}, 2000};
  auto events = decide(given({created()}), update);
  ASSERT_TRUE(events.ok());
  EXPECT_TRUE(events->empty());
}

TEST(ProjectDecide, AnotherAccountsProjectIsNotFound) {
  UpdateProject update{"prj_1", "other", {std::string("x"), std::nullopt, std::nullopt}, 2000};
  auto events = decide(given({created()}), update);
  ASSERT_FALSE(events.ok());
  EXPECT_EQ(events.error().code, base::ErrorCode::kNotFound);
  EXPECT_EQ(decide(given({created()}), DeleteProject{"prj_1", "other", 2000}).error().code,
            base::ErrorCode::kNotFound);
}

TEST(ProjectDecide, DeletedProjectCannotBeUpdatedOrDeletedAgain) {
  auto state = given({created(), ProjectDeleted{"prj_1", 3000}});
  UpdateProject update{"prj_1", "acme", {std::string("x"), std::nullopt, std::nullopt}, 4000};
  EXPECT_EQ(decide(state, update).error().code, base::ErrorCode::kNotFound);
  EXPECT_EQ(decide(state, DeleteProject{"prj_1", "acme", 4000}).error().code,
            base::ErrorCode::kNotFound);
}

TEST(ProjectEvolve, UpdateChangesFieldsAndTimestamp) {
  auto state =
      given({created(), ProjectUpdated{"prj_1", {std::string("new"), std::nullopt, 55.0}, 5000}});
  ASSERT_TRUE(state.project.has_value());
  EXPECT_EQ(state.project->name, "new");
  EXPECT_EQ(state.project->threshold, 55.0);
  EXPECT_EQ(state.project->created, 1000);
  EXPECT_EQ(state.project->updated, 5000);
}

}  // namespace
}  // namespace vouch::events
