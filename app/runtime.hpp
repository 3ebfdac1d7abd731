#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>

#include "actors/domain/commit_relay.hpp"
#include "actors/service.hpp"
#include "app/memory_budget.hpp"
#include "base/result.hpp"
#include "secrets/key_store.hpp"
#include "secrets/webhook_secrets.hpp"
#include "store/coverage_reports.hpp"
#include "store/database.hpp"
#include "store/event_log.hpp"
#include "store/read_models.hpp"
#include "store/snapshots.hpp"

namespace vouch::app {

// Everything behind a data folder, opened in order: the database, the read
// models caught up with the log, the secrets, the log with the projector
// listening, and the service with every subsystem Options names. stop()
// closes them in the reverse order, so queued appends commit before close.
struct Runtime {
  // The log tells it of commits until it closes.
  std::unique_ptr<actors::CommitRelay> relay;
  std::unique_ptr<store::Database> database;
  std::unique_ptr<store::ReadModels> models;
  std::unique_ptr<store::EventLog> log;
  // With Options::secrets_key_file: the data keys and the webhook secrets they seal.
  std::unique_ptr<secrets::KeyStore> keys;
  std::unique_ptr<secrets::WebhookSecrets> webhook_secrets;
  std::unique_ptr<store::CoverageReports> reports;  // in <folder>/reports
  std::unique_ptr<store::SnapshotStore> snapshots;  // in <folder>/snapshots
  std::unique_ptr<actors::Service> service;

  struct Options {
    // How long runs' coverage reports are kept.
    std::chrono::hours coverage_retention{24 * 30};
    // RocksDB's caches and the read memos; the service's cap on live project
    // actors comes from it too (it overrides service.max_live_projects).
    MemoryBudget memory = divide_memory(kDefaultMemoryMb);
    actors::Service::Options service;
    // The master key file (serve): opens the key store, seals the plain
    // secrets of an older folder (secrets/plain_secret_migration.hpp) and
    // destroys the data keys nothing needs, before anything is served.
    std::optional<std::filesystem::path> secrets_key_file;
    // Serve's subsystems; tools leave them out. Webhooks need
    // secrets_key_file; the dispatcher catches up from its cursor.
    std::optional<actors::ImportSettings> imports;  // in <folder>/snapshots
    std::optional<actors::WebhookSettings> webhooks;
    std::optional<actors::Service::WorkerListener> workers;
  };

  // `runner` says how tests are generated and run; it is asked once the
  // database is open (and so locked against a second server on the folder).
  // Tools that run nothing give settings without warm runners.
  using RunnerFactory = std::function<base::Result<actors::RunnerSettings>()>;
  [[nodiscard]] static base::Result<std::unique_ptr<Runtime>> open(
      const std::filesystem::path& folder, const RunnerFactory& runner, Options options);
  [[nodiscard]] static base::Result<std::unique_ptr<Runtime>> open(
      const std::filesystem::path& folder, const RunnerFactory& runner) {
    return open(folder, runner, Options{});
  }
  // Closes everything, in this order: the service (Service::stop(): webhook
  // delivery, the actors, the runners); the secrets, snapshots and reports it
  // used; the log (queued appends commit), the read models and the database;
  // last the relay the log told of commits. Idempotent.
  // REQUIRES: the HTTP server has stopped accepting.
  void stop();
  ~Runtime() { stop(); }

 private:
  [[nodiscard]] base::Status open_secrets(const std::filesystem::path& key_file);
};

// Issues a key through the actors and waits for it (tools and start-up only).
[[nodiscard]] base::Result<actors::IssuedKey> issue_key_and_wait(actors::Service& service,
                                                                 actors::IssueKey command);

}  // namespace vouch::app
