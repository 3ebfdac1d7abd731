#include "actors/cluster/worker_node.hpp"

#include <caf/io/all.hpp>

#include "actors/cluster/remote.hpp"
#include "actors/execution/dependency_cache.hpp"
#include "actors/execution/executor_pool.hpp"
#include "actors/execution/worker.hpp"
#include "log/log.hpp"
#include "process/child_process.hpp"

namespace vouch::actors {
namespace {

constexpr std::chrono::seconds kReconnectAfter{2};

// Keeps the worker joined to the server: connect, join, say it is there,
// and after a lost connection, connect again.
using link_actor = caf::typed_actor<caf::reacts_to<caf::connect_atom>,  // (re)connect now
                                    caf::reacts_to<heartbeat_atom>>;    // join again

struct LinkState {
  WorkerNodeOptions options;
  worker_actor worker;
  WorkerOffer offer;
  worker_gate_actor gate;  // null while not connected
  bool warned = false;     // about the server being unreachable, once per outage
  static inline const char* name = "vouch.worker-link";
};

using LinkSelf = link_actor::stateful_pointer<LinkState>;

void connect(LinkSelf self) {
  auto& state = self->state;
  const auto where = state.options.server_host + ":" + std::to_string(state.options.server_port);
  self->request(connector(self->system(), state.options.network), caf::infinite,
                caf::connect_atom::value, state.options.server_host, state.options.server_port)
      .then(
          [self, where](const caf::node_id&, caf::strong_actor_ptr& gate,
                        const std::set<std::string>& interface) {
            auto& state = self->state;
            if (!gate || interface != self->system().message_types<worker_gate_actor>()) {
              log::error("worker", where + " is not a vouchd server that takes workers");
              self->delayed_send(self, kReconnectAfter, caf::connect_atom::value);
              return;
            }
            state.gate = caf::actor_cast<worker_gate_actor>(gate);
            state.warned = false;
            self->monitor(state.gate);
            self->send(state.gate, join_atom_v, state.worker, state.offer);
            log::info("worker", "joined the server at " + where + " with " +
                                    std::to_string(state.offer.generators) + " generator and " +
                                    std::to_string(state.offer.executors) + " executor slots");
            self->delayed_send(self, state.options.heartbeat, heartbeat_atom_v);
          },
          [self, where](caf::error& error) {
            auto& state = self->state;
            if (!state.warned) {
              log::warn("worker", "cannot reach the server at " + where + " (" +
                                      self->system().render(error) + "); trying again");
              state.warned = true;
            }
            self->delayed_send(self, kReconnectAfter, caf::connect_atom::value);
          });
}

link_actor::behavior_type worker_link(LinkSelf self, WorkerNodeOptions options, worker_actor worker,
                                      WorkerOffer offer) {
  self->state.options = std::move(options);
  self->state.worker = std::move(worker);
  self->state.offer = std::move(offer);
  self->set_down_handler([self](caf::down_msg& down) {
    auto& state = self->state;
    if (!state.gate || down.source != state.gate.address()) return;
    log::warn("worker",
              "lost the server (" + self->system().render(down.reason) + "); connecting again");
    state.gate = nullptr;
    self->delayed_send(self, kReconnectAfter, caf::connect_atom::value);
  });
  self->send(self, caf::connect_atom::value);
  return {
      [self](caf::connect_atom) {
        if (!self->state.gate) connect(self);
      },
      [self](heartbeat_atom) {
        auto& state = self->state;
        if (!state.gate) return;  // the down handler reconnects
        self->send(state.gate, join_atom_v, state.worker, state.offer);
        self->delayed_send(self, state.options.heartbeat, heartbeat_atom_v);
      },
  };
}

caf::actor_system_config& make_config(caf::actor_system_config& config,
                                      const NetworkOptions& network) {
  config.set("scheduler.max-threads", std::size_t{1});
  config.add_message_types<caf::id_block::vouch>();
  load_network(config, network);
  return config;
}

}  // namespace

struct WorkerNode::Impl {
  Impl(RunnerSettings runner_settings, WorkerNodeOptions node_options)
      : options(std::move(node_options)),
        runner(std::move(runner_settings)),
        system(make_config(config, options.network)),
        dependencies(spawn_dependency_cache(system, runner, processes)),
        executors(spawn_executor_pool(system, runner, processes, stats)),
        worker(spawn_worker(
            system, WorkerConfig{&runner, &processes, dependencies, executors, options.name})),
        link(system.spawn(
            worker_link, options, worker,
            WorkerOffer{options.name, static_cast<std::uint32_t>(runner.generator_slots),
                        static_cast<std::uint32_t>(runner.executor_slots)})) {}

  ~Impl() {
    for (const caf::actor& actor :
         {caf::actor_cast<caf::actor>(link), caf::actor_cast<caf::actor>(worker),
          caf::actor_cast<caf::actor>(executors), caf::actor_cast<caf::actor>(dependencies)}) {
      caf::anon_send_exit(actor, caf::exit_reason::user_shutdown);
    }
    processes.kill_all();  // jobs in flight end now; the server retries them elsewhere
  }

  WorkerNodeOptions options;
  RunnerSettings runner;
  process::ProcessHost processes;  // outlives the actor system: runners die after their actors
  RunnerStats stats;
  caf::actor_system_config config;
  caf::actor_system system;
  dependency_cache_actor dependencies;
  executor_pool_actor executors;
  worker_actor worker;
  link_actor link;
};

WorkerNode::WorkerNode(RunnerSettings runner, WorkerNodeOptions options)
    : impl_(std::make_unique<Impl>(std::move(runner), std::move(options))) {}

WorkerNode::~WorkerNode() = default;

const RunnerStats& WorkerNode::runner_stats() const { return impl_->stats; }

}  // namespace vouch::actors
