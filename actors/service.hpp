#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "actors/cluster/network.hpp"
#include "actors/cluster/worker_stats.hpp"
#include "actors/delivery/webhook_messages.hpp"
#include "actors/domain/import_messages.hpp"
#include "actors/domain/project_actor_stats.hpp"
#include "actors/execution/runner_settings.hpp"
#include "actors/execution/runner_stats.hpp"
#include "actors/messages.hpp"
#include "base/result.hpp"
#include "events/idempotency.hpp"
#include "events/project.hpp"
#include "events/webhook.hpp"
#include "store/event_log.hpp"
#include "store/read_models.hpp"

namespace vouch::store {
class Database;
class ReadModels;
class SnapshotStore;
}  // namespace vouch::store

namespace vouch::secrets {
class WebhookSecrets;
}  // namespace vouch::secrets

namespace vouch::actors {

class CommitRelay;

// The write side of Vouch as the HTTP layer sees it: commands in, results out,
// with the CAF actor system hidden behind this facade (no CAF in this header,
// so the HTTP translation units do not compile it).
//
// Each call returns at once; `done` runs later on an actor thread and must
// hand its result over to the caller's own executor (it must not block).
//
// Built complete from one Config by create(): each optional subsystem
// (imports, webhook delivery, the listener of remote workers) is there from
// the start or not at all. stop() (or the destructor) tears it down in one
// stated order.
class Service {
 public:
  template <class T>
  using Callback = std::function<void(base::Result<T>)>;

  struct Options {
    // CAF's worker threads. Half the cores: the HTTP server, the log writer,
    // the webhook client and the child processes have threads of their own,
    // and on 2 cores one worker instead of two delivers more webhooks per
    // second and makes more durable creates (less stealing and fewer
    // hand-overs between threads).
    std::size_t threads = std::max<std::size_t>(1, std::thread::hardware_concurrency() / 2);
    std::chrono::milliseconds idle_after{
        60'000};                        // project and webhook actors stop when idle this long
    std::size_t max_live_projects = 0;  // project actors alive at once; 0: no cap
    std::chrono::milliseconds request_timeout{30'000};  // an answer takes at most this long
    NetworkOptions network;  // CAF's remote actors (Config::workers needs it enabled)
  };

  // Imports of snapshots and repositories. Clones work below the runner's
  // work_root (settings.work_root is set from it).
  struct Imports {
    ImportSettings settings;
    store::SnapshotStore* snapshots = nullptr;  // REQUIRES: set; outlives the service
  };

  // Webhook delivery: the HTTP(S) client, the webhook actors and the
  // dispatcher, which `relay` tells of every commit. REQUIRES: both set and
  // outliving the service, and Config::webhook_secrets set.
  struct Webhooks {
    WebhookSettings settings;
    store::Database* database = nullptr;
    CommitRelay* relay = nullptr;
  };

  // Where `vouchd worker` processes join (port 0 picks one). REQUIRES:
  // Options::network enabled, the host checked with check_network().
  struct WorkerListener {
    std::string host;
    std::uint16_t port = 0;
  };

  // Everything the service is made of. REQUIRES: `log`, `models` and
  // `webhook_secrets` outlive the service; the runner folders in `runner`
  // exist.
  struct Config {
    store::EventLog& log;
    const store::ReadModels& models;
    RunnerSettings runner;
    Options options;
    // Seals and opens webhook secrets and recorded API keys; null in tools
    // (then open_secret() and seal_response_secret() answer kUnavailable).
    secrets::WebhookSecrets* webhook_secrets = nullptr;
    std::optional<Imports> imports;         // absent: imports answer 503
    std::optional<Webhooks> webhooks;       // absent: webhook calls answer 503
    std::optional<WorkerListener> workers;  // absent: only this machine's slots
  };

  // The service with every subsystem `config` names started. kInvalid when
  // one cannot start (an unreadable webhook CA file, webhooks without
  // secrets, a worker address that cannot be bound); nothing is left running.
  [[nodiscard]] static base::Result<std::unique_ptr<Service>> create(Config config);
  ~Service();  // stop()
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;

  // Stops the service, in this order, and returns once it has stopped:
  // 1. webhook delivery: the relay stops telling of commits, the webhook
  //    client drops its connections (no more HTTP callbacks), the dispatcher
  //    and the webhook actors stop;
  // 2. intake: the worker gate (no more joins), the project registry, the
  //    accounts, the generation and run coordinators;
  // 3. execution: the worker hub, this machine's worker, its dependency
  //    cache and executor pool; then the event-store actor;
  // 4. the runners and generators still running are killed (their runs are
  //    recorded as interrupted at the next start);
  // 5. it waits until every actor has ended.
  // Calls afterwards answer kUnavailable. Idempotent. REQUIRES: not called
  // from an actor of this service; the HTTP server has stopped accepting
  // (requests still in flight get kUnavailable).
  void stop();

  void create_project(events::CreateProject command, Callback<events::Project> done);
  void update_project(events::UpdateProject command, Callback<events::Project> done);
  void delete_project(events::DeleteProject command, Callback<events::Project> done);
  void issue_key(IssueKey command, Callback<IssuedKey> done);
  void revoke_key(RevokeKey command, Callback<bool> done);

  // Answers once the generated test is durable; kUnavailable (with a
  // Retry-After) when no generator is free in time.
  void generate_tests(GenerateTests command, Callback<events::GeneratedTest> done);
  // Prefer: respond-async: answers once the acceptance is durable, with the
  // test generating; the generation goes on and records its own end.
  void generate_tests_async(GenerateTests command, Callback<events::GeneratedTest> done);
  // How far an asynchronous generation of this process got (empty phase when
  // it is not generating `test_id`).
  void generation_progress(std::string test_id, Callback<GenerationProgress> done);
  // Answers once the run has started (durable); it goes on in the background.
  void start_run(StartRun command, Callback<events::TestRun> done);
  // Answers true once the end of run `run_id` is durable and readable (at
  // once when this process is not driving that run), false when `wait`
  // passes first or vouchd is stopping. For readers that long-poll a run.
  void await_run_end(std::string run_id, std::chrono::milliseconds wait, Callback<bool> done);
  // Answers every await_run_end now, and later ones at once: vouchd is
  // stopping and its in-flight requests should not wait.
  void release_run_waits();

  // Answers once the snapshot is stored and project.imported is durable;
  // kUnavailable without Config::imports.
  void import_project(ImportRequest request, Callback<ImportedSnapshot> done);
  // Where imported snapshots are read; null without Config::imports.
  const store::SnapshotStore* snapshots() const;

  // Records the first response to an idempotent request of `account` (in its
  // key's stream); answers once it is durable and readable.
  void record_idempotent_response(std::string account, events::IdempotentResponse response,
                                  Callback<bool> done);

  // The port remote workers join on (Config::workers), nullopt without one.
  std::optional<std::uint16_t> workers_port() const;

  const RunnerSettings& runner() const;
  const RunnerStats& runner_stats() const;
  const WorkerStats& worker_stats() const;
  const ProjectActorStats& project_actor_stats() const;
  // Webhooks (kUnavailable without Config::webhooks). The replies carry the
  // whole webhook, secret included.
  void create_webhook(events::CreateWebhook command, Callback<events::Webhook> done);
  void update_webhook(events::UpdateWebhook command, Callback<events::Webhook> done);
  void delete_webhook(events::DeleteWebhook command, Callback<events::Webhook> done);
  void rotate_webhook_secret(events::RotateWebhookSecret command, Callback<events::Webhook> done);
  void redeliver(RedeliverWebhook command, Callback<RedeliveryQueued> done);
  // The plain form of a sealed secret of `owner` (a webhook's id, or the
  // idempotency stream of a recorded API key): kNotFound once its data key is
  // destroyed, kUnavailable without Config::webhook_secrets. Reads RocksDB on the
  // caller's thread (a point lookup).
  [[nodiscard]] base::Result<std::string> open_secret(const std::string& owner,
                                                      const events::SealedSecret& sealed) const;
  // `plain` (the API key a recorded idempotent response showed) sealed under
  // a new data key owned by the idempotency stream `stream`; the key goes
  // when the record stops answering retries (secrets/key_sweep.hpp).
  // kUnavailable without Config::webhook_secrets. Writes RocksDB on the caller's
  // thread (one unsynced put: the record's synced append follows).
  [[nodiscard]] base::Result<events::SealedSecret> seal_response_secret(const std::string& stream,
                                                                        std::string_view plain);

 private:
  struct Impl;

 public:
  // For create() only: Impl is private, so nothing else can make one.
  explicit Service(std::unique_ptr<Impl> impl);

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace vouch::actors
