#include "actors/cluster/remote.hpp"

#include <caf/io/all.hpp>
#include <caf/openssl/all.hpp>

namespace vouch::actors {

void load_network(caf::actor_system_config& config, const NetworkOptions& options) {
  if (!options.enabled) return;
  config.load<caf::io::middleman>();
  if (!options.tls()) return;
  config.load<caf::openssl::manager>();
  config.openssl_cafile = options.ca.string();
  config.openssl_certificate = options.cert.string();
  config.openssl_key = options.key.string();
}

events::Result<std::uint16_t> publish_gate(caf::actor_system& system, const NetworkOptions& options,
                                           const worker_gate_actor& gate, const std::string& host,
                                           std::uint16_t port) {
  auto published = options.tls() ? caf::openssl::publish(gate, port, host.c_str(), true)
                                 : system.middleman().publish(gate, port, host.c_str(), true);
  if (!published) {
    return events::Error::invalid("cannot listen for workers on " + host + ":" +
                                  std::to_string(port) + ": " + system.render(published.error()));
  }
  return *published;
}

caf::io::middleman_actor connector(caf::actor_system& system, const NetworkOptions& options) {
  return options.tls() ? system.openssl_manager().actor_handle()
                       : system.middleman().actor_handle();
}

}  // namespace vouch::actors
