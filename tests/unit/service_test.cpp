// The service as Runtime builds it: complete from one Config, its optional
// parts present or absent from the start, and stopped in one call.
#include "actors/service.hpp"

#include <gtest/gtest.h>

#include <future>
#include <memory>

#include "actors/domain/commit_relay.hpp"
#include "store/database.hpp"
#include "store/event_log.hpp"
#include "store/read_models.hpp"
#include "temp_folder.hpp"

namespace vouch::actors {
namespace {

class ServiceTest : public ::testing::Test {
 protected:
  ServiceTest()
      : database_(std::move(store::Database::open(folder_.path() / "data").value())),
        models_(*database_),
        log_(std::move(store::EventLog::open(*database_).value())) {
    log_->add_listener(&models_.projector());
  }

  // What the tools build: no runner, no optional part.
  Service::Config config() {
    RunnerSettings no_runs;
    no_runs.warm_runners = 0;
    Service::Options options;
    options.threads = 1;
    return Service::Config{.log = *log_, .models = models_, .runner = no_runs, .options = options};
  }

  // The result of one asynchronous call, waited for.
  template <class Reply, class Call>
  static base::Result<Reply> wait_for(Call call) {
    std::promise<base::Result<Reply>> promise;
    auto future = promise.get_future();
    call([&promise](base::Result<Reply> result) { promise.set_value(std::move(result)); });
    return future.get();
  }

  static base::Result<IssuedKey> issue(Service& service, const std::string& account) {
    return wait_for<IssuedKey>([&](Service::Callback<IssuedKey> done) {
      service.issue_key(IssueKey{account, events::Plan::kFree, {"projects:read"}, "", {}, 1},
                        std::move(done));
    });
  }

  vouch::testing::TempFolder folder_;
  std::unique_ptr<store::Database> database_;
  store::ReadModels models_;
  std::unique_ptr<store::EventLog> log_;
};

TEST_F(ServiceTest, WithoutItsOptionalPartsTheirCallsAnswerUnavailable) {
  auto service = Service::create(config());
  ASSERT_TRUE(service.ok()) << service.error().message;
  EXPECT_EQ((*service)->snapshots(), nullptr);
  EXPECT_EQ((*service)->workers_port(), std::nullopt);
  auto webhook = wait_for<events::Webhook>([&](Service::Callback<events::Webhook> done) {
    (*service)->create_webhook(events::CreateWebhook{}, std::move(done));
  });
  ASSERT_FALSE(webhook.ok());
  EXPECT_EQ(webhook.error().code, base::ErrorCode::kUnavailable);
  auto opened = (*service)->open_secret("whk_1", events::SealedSecret{"dk_1", "AAAA"});
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(opened.error().code, base::ErrorCode::kUnavailable);
  // The core works.
  auto issued = issue(**service, "acme");
  ASSERT_TRUE(issued.ok()) << issued.error().message;
  EXPECT_EQ(issued->record.account, "acme");
}

TEST_F(ServiceTest, StopEndsItOnceAndLaterCallsAnswerUnavailable) {
  auto service = Service::create(config());
  ASSERT_TRUE(service.ok()) << service.error().message;
  ASSERT_TRUE(issue(**service, "acme").ok());
  (*service)->stop();
  (*service)->stop();  // a second stop does nothing
  auto late = issue(**service, "late");
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.error().code, base::ErrorCode::kUnavailable) << late.error().message;
}

TEST_F(ServiceTest, APartThatCannotStartFailsTheCreation) {
  CommitRelay relay;
  auto without_secrets = config();
  without_secrets.webhooks = Service::Webhooks{WebhookSettings{}, database_.get(), &relay};
  auto refused = Service::create(std::move(without_secrets));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, base::ErrorCode::kInvalid);
  EXPECT_NE(refused.error().message.find("secrets"), std::string::npos) << refused.error().message;

  auto without_network = config();
  without_network.workers = Service::WorkerListener{"127.0.0.1", 0};
  auto no_network = Service::create(std::move(without_network));
  ASSERT_FALSE(no_network.ok());
  EXPECT_EQ(no_network.error().code, base::ErrorCode::kInvalid);
}

}  // namespace
}  // namespace vouch::actors
