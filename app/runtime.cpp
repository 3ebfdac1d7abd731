#include "app/runtime.hpp"

#include <future>
#include <iostream>

#include "base/clock.hpp"
#include "log/log.hpp"
#include "secrets/key_sweep.hpp"
#include "secrets/plain_secret_migration.hpp"
#include "store/read_model_format.hpp"

namespace vouch::app {

base::Result<std::unique_ptr<Runtime>> Runtime::open(const std::filesystem::path& folder,
                                                     const RunnerFactory& runner, Options options) {
  auto runtime = std::make_unique<Runtime>();
  store::Database::Options database_options;
  database_options.memory = options.memory.rocksdb;
  auto database = store::Database::open(folder, database_options);
  if (!database) return std::move(database).error();
  runtime->database = std::move(database).value();
  auto cleared = store::prepare_read_model_format(*runtime->database);
  if (!cleared) return std::move(cleared).error();
  if (*cleared) {
    std::cerr << "time=" << base::format_timestamp(base::now_millis())
              << " level=info msg=\"the read models were in format " << **cleared
              << "; rebuilding them from the log in format " << store::kReadModelFormat << "\"\n";
  }
  runtime->models =
      std::make_unique<store::ReadModels>(*runtime->database, options.memory.read_memos);
  auto log = store::EventLog::open(*runtime->database);
  if (!log) return std::move(log).error();
  runtime->log = std::move(log).value();
  if (options.secrets_key_file) {
    if (auto status = runtime->open_secrets(*options.secrets_key_file); !status) {
      return std::move(status).error();
    }
  }
  // Nothing appends before the service exists, so nothing slips between the
  // catch-up and the listener.
  if (auto status = runtime->models->projector().catch_up(*runtime->log); !status) {
    return std::move(status).error();
  }
  runtime->log->add_listener(&runtime->models->projector());
  // Listens from the start; the service connects it to the webhook dispatcher.
  runtime->relay = std::make_unique<actors::CommitRelay>();
  runtime->log->add_listener(runtime->relay.get());
  auto settings = runner();
  if (!settings) return std::move(settings).error();
  runtime->reports =
      std::make_unique<store::CoverageReports>(folder / "reports", options.coverage_retention);
  if (auto swept = runtime->reports->sweep(base::now_millis()); !swept) {
    return std::move(swept).error();
  }
  settings->coverage_reports = runtime->reports.get();
  runtime->snapshots = std::make_unique<store::SnapshotStore>(folder / "snapshots");
  options.service.max_live_projects = options.memory.project_actors;
  actors::Service::Config config{.log = *runtime->log,
                                 .models = *runtime->models,
                                 .runner = std::move(settings).value(),
                                 .options = options.service,
                                 .webhook_secrets = runtime->webhook_secrets.get()};
  if (options.imports) {
    config.imports =
        actors::Service::Imports{std::move(*options.imports), runtime->snapshots.get()};
  }
  if (options.webhooks) {
    config.webhooks = actors::Service::Webhooks{std::move(*options.webhooks),
                                                runtime->database.get(), runtime->relay.get()};
  }
  config.workers = std::move(options.workers);
  auto service = actors::Service::create(std::move(config));
  if (!service) return std::move(service).error();
  runtime->service = std::move(service).value();
  return runtime;
}

base::Status Runtime::open_secrets(const std::filesystem::path& key_file) {
  auto opened = secrets::open_key_store(*database, key_file);
  if (!opened) return std::move(opened).error();
  keys = std::move(opened).value();
  webhook_secrets = std::make_unique<secrets::WebhookSecrets>(*keys);
  auto migrated = secrets::seal_plain_secrets(*database, *webhook_secrets);
  if (!migrated) return std::move(migrated).error();
  if (migrated->events + migrated->responses > 0) {
    log::info("secrets", "sealed the plain webhook secrets of " + std::to_string(migrated->events) +
                             " events and " + std::to_string(migrated->responses) +
                             " recorded responses, and compacted the data folder");
  }
  auto destroyed = secrets::destroy_unneeded_keys(*log, *webhook_secrets, base::now_millis());
  if (!destroyed) return std::move(destroyed).error();
  if (*destroyed > 0) {
    if (auto purged = keys->purge(); !purged) return std::move(purged).error();
    log::info("secrets", "destroyed " + std::to_string(*destroyed) +
                             " data keys no webhook needs (deleted, or rotated out)");
  }
  return base::ok_status();
}

void Runtime::stop() {
  if (service) service->stop();
  service.reset();
  webhook_secrets.reset();
  keys.reset();
  snapshots.reset();
  reports.reset();
  log.reset();
  models.reset();
  database.reset();
  relay.reset();
}

base::Result<actors::IssuedKey> issue_key_and_wait(actors::Service& service,
                                                   actors::IssueKey command) {
  std::promise<base::Result<actors::IssuedKey>> promise;
  auto future = promise.get_future();
  service.issue_key(std::move(command), [&promise](base::Result<actors::IssuedKey> result) {
    promise.set_value(std::move(result));
  });
  return future.get();
}

}  // namespace vouch::app
