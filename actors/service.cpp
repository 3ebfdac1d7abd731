#include "actors/service.hpp"

#include "actors/account_actor.hpp"
#include "actors/errors.hpp"
#include "actors/event_store_actor.hpp"
#include "actors/project_registry.hpp"
#include "actors/type_ids.hpp"

namespace vouch::actors {
namespace {

caf::actor_system_config make_config(const Service::Options& options) {
  caf::actor_system_config config;
  config.set("scheduler.max-threads", options.threads);
  config.add_message_types<caf::id_block::vouch>();
  return config;
}

}  // namespace

struct Service::Impl {
  Impl(store::EventLog& log, const Options& options)
      : options(options),
        config(make_config(options)),
        system(config),
        store(spawn_event_store(system, log)),
        projects(spawn_project_registry(system, log, store, options.idle_after)),
        accounts(spawn_account_actor(system, log, store)) {}

  ~Impl() {
    caf::anon_send_exit(projects, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(accounts, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(store, caf::exit_reason::user_shutdown);
  }

  // Bridges one request from a plain thread into the actor world: a
  // short-lived actor sends it, waits (without blocking a thread) for the
  // reply or the timeout, hands the result to `done` and ends.
  template <class Reply, class Handle, class Message>
  void ask(const Handle& target, Message message, Callback<Reply> done) {
    system.spawn([target, message = std::move(message), done = std::move(done),
                  timeout = options.request_timeout](caf::event_based_actor* self) mutable {
      self->request(target, timeout, std::move(message))
          .then([done](Reply& reply) { done(std::move(reply)); },
                [done](caf::error& error) { done(from_caf_error(error)); });
    });
  }

  Options options;
  caf::actor_system_config config;
  caf::actor_system system;
  event_store_actor store;
  project_registry_actor projects;
  account_actor accounts;
};

Service::Service(store::EventLog& log, Options options)
    : impl_(std::make_unique<Impl>(log, options)) {}

Service::~Service() = default;

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

}  // namespace vouch::actors
