#include <gtest/gtest.h>

#include <map>
#include <set>

#include "webhook_fixture.hpp"

namespace vouch::testing {
namespace {

class WebhookCrash : public WebhookTest {};

// A receiver that fails about half of the attempts; kill -9 of vouchd while
// events are created and delivered; a restart on the same folder. Every
// acknowledged event reaches the receiver with a 2xx at least once, and the
// delivery log records that success for each.
TEST_F(WebhookCrash, EveryEventIsDeliveredAtLeastOnceAcrossKillNine) {
  const auto flags = local_flags("0.0001");  // retries after 0.5, 30 and 180 ms
  start(flags);
  const auto hook = create_webhook(receiver_url("crash", "flaky=1"), R"(["project.created"])");

  std::vector<std::string> acknowledged;
  {
    ProjectCreators creators(server_->port(), 4, 200);
    ASSERT_TRUE(wait_until([&] {
      return creators.acknowledged().size() >= 60 && receiver_->requests("crash").size() >= 20;
    }));
    server_->kill();
    creators.stop();
    acknowledged = creators.acknowledged();
  }
  const std::size_t before_crash = acknowledged.size();

  server_ = std::make_unique<VouchdProcess>(folder_.path() / "data", flags);
  for (int i = 0; i < 10; ++i) acknowledged.push_back(create_project("after-" + std::to_string(i)));

  // project id → event id, from what the receiver answered with a 2xx.
  const auto delivered = [&] {
    std::map<std::string, std::string> out;
    for (const auto& request : receiver_->requests("crash")) {
      const auto& object = request.as_object();
      if (object.at("status").as_int64() != 200) continue;
      auto body = boost::json::parse(str(object.at("body"))).as_object();
      out[str(body["data"].as_object()["id"])] = str(body["id"]);
    }
    return out;
  };
  ASSERT_TRUE(wait_until(
      [&] {
        auto seen = delivered();
        for (const auto& id : acknowledged) {
          if (!seen.count(id)) return false;
        }
        return true;
      },
      std::chrono::seconds(20)))
      << "acknowledged before the crash: " << before_crash;

  auto checks = receiver_->verify("crash", {hook.secret});
  for (const auto& check : checks) {
    const auto& result = check.as_object().at("checks").as_array()[0].as_object();
    EXPECT_TRUE(result.at("service").as_bool());
    EXPECT_TRUE(result.at("standard").as_bool());
  }

  const auto events = delivered();
  ASSERT_TRUE(wait_until(
      [&] {
        std::set<std::string> logged;
        for (const auto& entry : deliveries(hook.id)) {
          if (entry.as_object().at("success").as_bool()) {
            logged.insert(str(entry.as_object().at("eventId")));
          }
        }
        for (const auto& id : acknowledged) {
          if (!logged.count(events.at(id))) return false;
        }
        return true;
      },
      std::chrono::seconds(10)));

  ASSERT_EQ(server_->terminate(), 0);
  auto replay = run_vouchd({"replay", "--data", (folder_.path() / "data").string(), "--verify"});
  EXPECT_EQ(replay.status, 0) << "read models differ from a rebuild";
}

}  // namespace
}  // namespace vouch::testing
