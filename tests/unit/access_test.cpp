#include "events/access.hpp"

#include <gtest/gtest.h>

namespace vouch::events {
namespace {

IssueApiKey issue(std::vector<std::string> scopes) {
  return IssueApiKey{"key_1", "acme", "ci", std::move(scopes), "hash", 1000};
}

TEST(AccountDecide, OpeningANewAccountRecordsItsPlan) {
  auto events = decide(AccountState{}, OpenAccount{"acme", Plan::kPro, 1000});
  ASSERT_TRUE(events.ok());
  ASSERT_EQ(events->size(), 1u);
  EXPECT_EQ(std::get<AccountOpened>(events->front()).plan, Plan::kPro);
}

TEST(AccountDecide, ReopeningWithAnotherPlanChangesThePlanOnly) {
  AccountState open = evolve({}, AccountOpened{"acme", Plan::kFree, 1});
  auto events = decide(open, OpenAccount{"acme", Plan::kEnterprise, 2});
  ASSERT_TRUE(events.ok());
  ASSERT_EQ(events->size(), 1u);
  EXPECT_TRUE(std::holds_alternative<AccountPlanChanged>(events->front()));
  EXPECT_TRUE(decide(open, OpenAccount{"acme", Plan::kFree, 2})->empty());
}

TEST(AccountDecide, BadAccountNamesAreRefused) {
  for (const char* name : {"", "Acme", "-acme", "a b", "x/y"}) {
    auto events = decide(AccountState{}, OpenAccount{name, Plan::kFree, 1});
    ASSERT_FALSE(events.ok()) << name;
    EXPECT_EQ(events.error().code, base::ErrorCode::kInvalid);
  }
}

TEST(ApiKeyDecide, IssueNeedsKnownScopes) {
  EXPECT_TRUE(decide(ApiKeyState{}, issue({"projects:read", "admin"})).ok());
  auto unknown = decide(ApiKeyState{}, issue({"projects:read", "root"}));
  ASSERT_FALSE(unknown.ok());
  ASSERT_EQ(unknown.error().fields.size(), 1u);
  EXPECT_EQ(unknown.error().fields[0].field, "scopes[1]");
  EXPECT_FALSE(decide(ApiKeyState{}, issue({})).ok());
}

TEST(ApiKeyDecide, RevokeIsIdempotentAndNeedsAnIssuedKey) {
  EXPECT_EQ(decide(ApiKeyState{}, RevokeApiKey{"key_1", 1}).error().code,
            base::ErrorCode::kNotFound);
  auto issued =
      evolve({}, std::get<ApiKeyIssued>(decide(ApiKeyState{}, issue({"admin"}))->front()));
  auto revoke = decide(issued, RevokeApiKey{"key_1", 2});
  ASSERT_TRUE(revoke.ok());
  ASSERT_EQ(revoke->size(), 1u);
  auto revoked = evolve(issued, revoke->front());
  EXPECT_TRUE(revoked.revoked);
  EXPECT_TRUE(decide(revoked, RevokeApiKey{"key_1", 3})->empty());
}

}  // namespace
}  // namespace vouch::events
