#include "actors/service.hpp"

#include <initializer_list>
#include <optional>
#include <tuple>

#include "actors/cluster/remote.hpp"
#include "actors/cluster/worker_hub.hpp"
#include "actors/delivery/webhook_dispatcher.hpp"
#include "actors/domain/account_actor.hpp"
#include "actors/domain/append_request.hpp"
#include "actors/domain/commit_relay.hpp"
#include "actors/domain/event_store_actor.hpp"
#include "actors/domain/project_importer.hpp"
#include "actors/domain/project_registry.hpp"
#include "actors/domain/webhook_registry.hpp"
#include "actors/errors.hpp"
#include "actors/execution/dependency_cache.hpp"
#include "actors/execution/executor_pool.hpp"
#include "actors/execution/generation_coordinator.hpp"
#include "actors/execution/generation_scale.hpp"
#include "actors/execution/run_coordinator.hpp"
#include "actors/execution/worker.hpp"
#include "actors/timeouts.hpp"
#include "actors/type_ids.hpp"
#include "process/child_process.hpp"
#include "secrets/webhook_secrets.hpp"
#include "store/read_models.hpp"

namespace vouch::actors {
namespace {

caf::actor_system_config make_config(const Service::Options& options) {
  caf::actor_system_config config;
  config.set("scheduler.max-threads", options.threads);
  // CAF's work-stealing workers, when their queue runs dry, poll it 500 times
  // with 50 us sleeps before waiting on a condition variable. Under a steady
  // stream of short messages (webhook fan-out) that polling is a large share
  // of the workers' CPU, on a machine where the log writer, the webhook client
  // and the receivers need the cores. Skip it: after the short busy poll a
  // worker waits on its condition variable, which an enqueue to it signals.
  // Waking more often than CAF's 10 ms to look for work to steal costs an
  // idle server a thousand wake-ups a second per worker.
  config.set("work-stealing.moderate-poll-attempts", std::size_t{0});
  config.add_message_types<caf::id_block::vouch>();
  load_network(config, options.network);
  return config;
}

}  // namespace

struct Service::Impl {
  // The core: the event store, the domain actors and the execution actors.
  // The optional subsystems are added by start_webhooks() and
  // start_worker_listener(), both called by Service::create() only.
  explicit Impl(Config& config)
      : options(config.options),
        runner(std::move(config.runner)),
        webhook_secrets(config.webhook_secrets),
        imports(std::move(config.imports)),
        actor_config(make_config(options)),
        system(actor_config),
        store(spawn_event_store(system, config.log)),
        projects(spawn_project_registry(
            system, config.log, store,
            ProjectActorLimits{options.idle_after, options.max_live_projects},
            project_actor_stats)),
        accounts(spawn_account_actor(system, config.log, store)),
        dependencies(spawn_dependency_cache(system, runner, processes)),
        executors(spawn_executor_pool(system, runner, processes, runner_stats)),
        local_worker(spawn_worker(
            system, WorkerConfig{&runner, &processes, dependencies, executors, "local"})),
        workers(spawn_worker_hub(
            system,
            WorkerHubConfig{&runner, &runner_stats, &worker_stats, local_worker,
                            WorkerOffer{"local", static_cast<std::uint32_t>(runner.generator_slots),
                                        static_cast<std::uint32_t>(runner.executor_slots)}})),
        generators(spawn_generation_coordinator(
            system, GenerationCoordinatorConfig{workers, store, &config.models.tests()})),
        runs(spawn_run_coordinator(
            system, RunCoordinatorConfig{&runner, &config.models.projects(), &config.models.tests(),
                                         &config.models.runs(), store, workers})) {
    if (imports) imports->settings.work_root = runner.work_root;
  }

  ~Impl() { stop(); }

  base::Status start_webhooks(const Webhooks& settings, const store::EventLog& log,
                              const store::ReadModels& models);
  base::Status start_worker_listener(const WorkerListener& listener);

  // Service::stop(), in the order its comment states.
  void stop() {
    if (stopped) return;
    stopped = true;
    // 1. Webhook delivery: no more commit notices, no more HTTP callbacks.
    if (webhooks.relay) webhooks.relay->disconnect();
    if (webhook_client) webhook_client->shutdown();
    exit_all({caf::actor_cast<caf::actor>(webhooks.dispatcher),
              caf::actor_cast<caf::actor>(webhooks.registry)});
    // 2. Intake, 3. execution, then the event store.
    exit_all({caf::actor_cast<caf::actor>(gate), caf::actor_cast<caf::actor>(projects),
              caf::actor_cast<caf::actor>(accounts), caf::actor_cast<caf::actor>(generators),
              caf::actor_cast<caf::actor>(runs)});
    exit_all({caf::actor_cast<caf::actor>(workers), caf::actor_cast<caf::actor>(local_worker),
              caf::actor_cast<caf::actor>(dependencies), caf::actor_cast<caf::actor>(executors),
              caf::actor_cast<caf::actor>(store)});
    // 4. Runs still executing would keep their actors, and so the actor
    // system, alive until their wall-time limit. Their runners die now; their
    // run actors report to a coordinator that has stopped, so nothing is
    // recorded, and the next start ends those runs as interrupted.
    processes.kill_all();
    // 5. Every actor has ended (the request bridges see their targets go).
    system.await_all_actors_done();
  }

  static void exit_all(std::initializer_list<caf::actor> actors) {
    for (const auto& actor : actors) {
      if (actor) caf::anon_send_exit(actor, caf::exit_reason::user_shutdown);
    }
  }

  // Bridges one request from a plain thread into the actor world: a
  // short-lived actor sends it, waits (without blocking a thread) for the
  // reply, the timeout or the target's end (it monitors the target: a target
  // stopped at shutdown never answers), hands the result to `done` and ends.
  template <class Reply, class Handle, class Message>
  void ask(const Handle& target, Message message, Callback<Reply> done) {
    ask<Reply>(target, std::move(message), std::move(done), options.request_timeout);
  }

  template <class Reply, class Handle, class Message>
  void ask(const Handle& target, Message message, Callback<Reply> done,
           std::chrono::milliseconds timeout) {
    ask_with<Reply>(timeout, target, std::move(done), std::move(message));
  }

  // The same for a message of several elements.
  template <class Reply, class Handle, class... Elements>
  void ask_with(std::chrono::milliseconds timeout, const Handle& target, Callback<Reply> done,
                Elements... message) {
    system.spawn(
        [target, done = std::move(done), timeout,
         message = std::make_tuple(std::move(message)...)](caf::event_based_actor* self) mutable {
          self->monitor(target);
          self->set_down_handler([self, done](caf::down_msg&) {
            done(base::Error::unavailable("the service is stopping; retry later"));
            self->quit();
          });
          std::apply(
              [&](auto&... elements) {
                self->request(target, timeout, std::move(elements)...)
                    .then(
                        [self, done, target](Reply& reply) {
                          self->demonitor(target.address());
                          done(std::move(reply));
                          self->quit();
                        },
                        [self, done, target](caf::error& error) {
                          self->demonitor(target.address());
                          done(from_caf_error(error));
                          self->quit();
                        });
              },
              message);
        });
  }

  Options options;
  RunnerSettings runner;
  secrets::WebhookSecrets* webhook_secrets;
  std::optional<Imports> imports;
  std::optional<std::uint16_t> workers_port;
  bool stopped = false;
  // Each subsystem's resources outlive the actor system (members are
  // destroyed in reverse order), although stop() has ended every actor first.
  std::unique_ptr<transport::WebhookClient> webhook_client;
  process::ProcessHost processes;
  RunnerStats runner_stats;
  WorkerStats worker_stats;
  ProjectActorStats project_actor_stats{options.max_live_projects};
  caf::actor_system_config actor_config;
  caf::actor_system system;
  event_store_actor store;
  project_registry_actor projects;
  account_actor accounts;
  // This machine's worker (dependencies, runners), then the hub that gives it
  // and remote workers jobs, then those who hand the hub jobs.
  dependency_cache_actor dependencies;
  executor_pool_actor executors;
  worker_actor local_worker;
  worker_hub_actor workers;
  generation_coordinator_actor generators;
  run_coordinator_actor runs;
  worker_gate_actor gate;  // with Config::workers
  struct WebhookActors {   // with Config::webhooks
    CommitRelay* relay = nullptr;
    webhook_registry_actor registry;
    webhook_dispatcher_actor dispatcher;
  } webhooks;
};

base::Result<std::unique_ptr<Service>> Service::create(Config config) {
  auto impl = std::make_unique<Impl>(config);
  if (config.webhooks) {
    if (auto started = impl->start_webhooks(*config.webhooks, config.log, config.models);
        !started) {
      return std::move(started).error();  // ~Impl stops what started
    }
  }
  if (config.workers) {
    if (auto started = impl->start_worker_listener(*config.workers); !started) {
      return std::move(started).error();
    }
  }
  return std::make_unique<Service>(std::move(impl));
}

Service::Service(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Service::~Service() = default;

void Service::stop() { impl_->stop(); }

std::optional<std::uint16_t> Service::workers_port() const { return impl_->workers_port; }

void Service::create_project(events::CreateProject command, Callback<events::Project> done) {
  impl_->ask<events::Project>(impl_->projects, std::move(command), std::move(done));
}

void Service::update_project(events::UpdateProject command, Callback<events::Project> done) {
  impl_->ask<events::Project>(impl_->projects, std::move(command), std::move(done));
}

void Service::delete_project(events::DeleteProject command, Callback<events::Project> done) {
  impl_->ask<events::Project>(impl_->projects, std::move(command), std::move(done));
}

void Service::issue_key(IssueKey command, Callback<IssuedKey> done) {
  impl_->ask<IssuedKey>(impl_->accounts, std::move(command), std::move(done));
}

void Service::revoke_key(RevokeKey command, Callback<bool> done) {
  impl_->ask<bool>(impl_->accounts, std::move(command), std::move(done));
}

void Service::generate_tests(GenerateTests command, Callback<events::GeneratedTest> done) {
  const auto& runner = impl_->runner;
  // Waiting in line, then installing dependencies and the generator's whole
  // sandboxed life, twice when a worker is lost during the first.
  const auto attempt =
      (command.environment.dependencies.empty() ? std::chrono::milliseconds(0)
                                                : runner.install_timeout) +
      std::chrono::milliseconds(generation_plan(runner, command.files).limits.wall_ms);
  const auto timeout = runner.generation_queue_wait + 2 * attempt + std::chrono::seconds(15);
  impl_->ask<events::GeneratedTest>(impl_->generators, std::move(command), std::move(done),
                                    timeout);
}

void Service::generate_tests_async(GenerateTests command, Callback<events::GeneratedTest> done) {
  impl_->ask_with<events::GeneratedTest>(impl_->options.request_timeout, impl_->generators,
                                         std::move(done), async_atom_v, std::move(command));
}

void Service::generation_progress(std::string test_id, Callback<GenerationProgress> done) {
  impl_->ask_with<GenerationProgress>(impl_->options.request_timeout, impl_->generators,
                                      std::move(done), progress_atom_v, std::move(test_id));
}

void Service::start_run(StartRun command, Callback<events::TestRun> done) {
  impl_->ask<events::TestRun>(impl_->runs, std::move(command), std::move(done));
}

void Service::await_run_end(std::string run_id, std::chrono::milliseconds wait,
                            Callback<bool> done) {
  impl_->ask_with<bool>(
      wait, impl_->runs,
      // A wait that ran out is no error: the reader sees the run as it is.
      [done = std::move(done)](base::Result<bool> ended) { done(ended && *ended); },
      await_end_atom_v, std::move(run_id), caf::timespan{wait});
}

void Service::release_run_waits() { caf::anon_send(impl_->runs, release_all_atom_v); }

const store::SnapshotStore* Service::snapshots() const {
  return impl_->imports ? impl_->imports->snapshots : nullptr;
}

void Service::import_project(ImportRequest request, Callback<ImportedSnapshot> done) {
  auto& impl = *impl_;
  if (!impl.imports) return done(base::Error::unavailable("imports are not configured", 60));
  import_snapshot(impl.system, &impl.imports->settings, &impl.processes, impl.imports->snapshots,
                  impl.projects, std::move(request), std::move(done));
}

void Service::record_idempotent_response(std::string account, events::IdempotentResponse response,
                                         Callback<bool> done) {
  auto stream = events::idempotency_stream(account, response.key);
  const auto at = response.at;
  // Any version: a key used again after its window records a newer response;
  // two uses within it never both get here (the HTTP layer admits one at a time).
  auto request = append_request(
      std::move(stream), store::kAnyVersion,
      std::vector{events::IdempotentResponseRecorded{std::move(response)}}, account, at);
  impl_->ask_with<store::AppendResult>(
      kAppendTimeout, impl_->store,
      [done = std::move(done)](base::Result<store::AppendResult> appended) {
        if (!appended) return done(std::move(appended).error());
        done(true);
      },
      append_atom_v, std::move(request));
}

const RunnerSettings& Service::runner() const { return impl_->runner; }

const RunnerStats& Service::runner_stats() const { return impl_->runner_stats; }

const WorkerStats& Service::worker_stats() const { return impl_->worker_stats; }

const ProjectActorStats& Service::project_actor_stats() const { return impl_->project_actor_stats; }

base::Status Service::Impl::start_worker_listener(const WorkerListener& listener) {
  if (!options.network.enabled) {
    return base::Error::invalid("the service was configured without the network");
  }
  gate = spawn_worker_gate(system, workers);
  auto port = publish_gate(system, options.network, gate, listener.host, listener.port);
  if (!port) return std::move(port).error();
  workers_port = *port;
  return base::ok_status();
}

base::Status Service::Impl::start_webhooks(const Webhooks& config, const store::EventLog& log,
                                           const store::ReadModels& models) {
  const auto& settings = config.settings;
  if (!webhook_secrets)
    return base::Error::invalid("webhooks need the secrets key (--secrets-key-file)");
  if (!config.database || !config.relay) {
    return base::Error::invalid("webhooks need the database and the commit relay");
  }
  transport::WebhookClient::Options client_options;
  client_options.policy = transport::AddressPolicy(settings.allow_cidrs);
  client_options.ca_file = settings.ca_file;
  // Webhooks on one host (often one receiver behind many endpoints) share its
  // kept-alive connections: keep as many idle as 16 webhooks have attempts in
  // flight, so that fan-out to them reuses connections instead of opening one
  // per attempt beyond the pool.
  client_options.max_idle_per_host = 16 * kMaxAttemptsInFlight;
  auto client = transport::WebhookClient::create(std::move(client_options));
  if (!client) return std::move(client).error();
  webhook_client = std::move(client).value();

  WebhookActorConfig prototype;
  prototype.log = &log;
  prototype.deliveries = &models.deliveries();
  prototype.store = store;
  prototype.client = webhook_client.get();
  prototype.secrets = webhook_secrets;
  prototype.rules.allow_http = settings.allow_http;
  prototype.retry.scale = settings.retry_scale;
  prototype.timeout = settings.timeout;
  prototype.idle_after = options.idle_after;
  webhooks.registry = spawn_webhook_registry(system, std::move(prototype));
  webhooks.dispatcher = spawn_webhook_dispatcher(
      system, WebhookDispatcherConfig{&log, &models.webhooks(), &models.deliveries(),
                                      config.database, webhooks.registry});
  webhooks.relay = config.relay;
  webhooks.relay->connect([dispatcher = webhooks.dispatcher](std::uint64_t last) {
    caf::anon_send(dispatcher, committed_atom_v, last);
  });
  return base::ok_status();
}

namespace {

template <class Reply>
bool refuse_unless_started(const webhook_registry_actor& registry,
                           const Service::Callback<Reply>& done) {
  if (registry) return false;
  done(base::Error::unavailable("webhooks are not started in this process"));
  return true;
}

}  // namespace

void Service::create_webhook(events::CreateWebhook command, Callback<events::Webhook> done) {
  if (refuse_unless_started(impl_->webhooks.registry, done)) return;
  impl_->ask<events::Webhook>(impl_->webhooks.registry, std::move(command), std::move(done));
}

void Service::update_webhook(events::UpdateWebhook command, Callback<events::Webhook> done) {
  if (refuse_unless_started(impl_->webhooks.registry, done)) return;
  impl_->ask<events::Webhook>(impl_->webhooks.registry, std::move(command), std::move(done));
}

void Service::delete_webhook(events::DeleteWebhook command, Callback<events::Webhook> done) {
  if (refuse_unless_started(impl_->webhooks.registry, done)) return;
  impl_->ask<events::Webhook>(impl_->webhooks.registry, std::move(command), std::move(done));
}

void Service::rotate_webhook_secret(events::RotateWebhookSecret command,
                                    Callback<events::Webhook> done) {
  if (refuse_unless_started(impl_->webhooks.registry, done)) return;
  impl_->ask<events::Webhook>(impl_->webhooks.registry, std::move(command), std::move(done));
}

base::Result<std::string> Service::open_secret(const std::string& owner,
                                               const events::SealedSecret& sealed) const {
  if (!impl_->webhook_secrets) {
    return base::Error::unavailable("the secrets key store is not open in this process");
  }
  return impl_->webhook_secrets->open(owner, sealed);
}

base::Result<events::SealedSecret> Service::seal_response_secret(const std::string& stream,
                                                                 std::string_view plain) {
  if (!impl_->webhook_secrets) {
    return base::Error::unavailable("the secrets key store is not open in this process");
  }
  return impl_->webhook_secrets->seal(stream, plain);
}

void Service::redeliver(RedeliverWebhook command, Callback<RedeliveryQueued> done) {
  if (refuse_unless_started(impl_->webhooks.registry, done)) return;
  impl_->ask<RedeliveryQueued>(impl_->webhooks.registry, std::move(command), std::move(done));
}

}  // namespace vouch::actors
