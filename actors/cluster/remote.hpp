#pragma once

#include <caf/io/middleman_actor.hpp>

#include "actors/cluster/network.hpp"
#include "actors/type_ids.hpp"

// CAF's remote actors, set up one way for the server and its workers.
namespace vouch::actors {

// Loads CAF's middleman into `config`, and the OpenSSL manager with the
// certificates when `options` has them (TLS, both sides verify the other's
// certificate against the CA). REQUIRES: before the actor system starts.
void load_network(caf::actor_system_config& config, const NetworkOptions& options);

// Publishes `gate` on host:port (0 picks a port) and returns the port.
// REQUIRES: the system was configured by load_network(), enabled.
[[nodiscard]] base::Result<std::uint16_t> publish_gate(caf::actor_system& system,
                                                       const NetworkOptions& options,
                                                       const worker_gate_actor& gate,
                                                       const std::string& host, std::uint16_t port);

// The middleman actor that connects to a server (CAF's TLS one with
// certificates). REQUIRES: as publish_gate().
caf::io::middleman_actor connector(caf::actor_system& system, const NetworkOptions& options);

}  // namespace vouch::actors
