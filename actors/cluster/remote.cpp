#include "actors/cluster/remote.hpp"

#include <dlfcn.h>
#include <openssl/ssl.h>

#include <caf/io/all.hpp>
#include <caf/openssl/all.hpp>
#include <cstring>

// CAF 0.17's OpenSSL sessions all run on the middleman's one thread, and a
// session whose peer dies leaves an error ("unexpected eof") on that
// thread's OpenSSL error queue: CAF drains the queue only into its log,
// which Debian's build compiles out. The next session whose read ends in
// SSL_ERROR_WANT_READ then gets that stale error from SSL_get_error and is
// closed too: one worker killed took every other worker's connection with
// it. CAF configures the context of each of its authenticated sessions with
// this call and this cipher list; this definition, which the dynamic linker
// prefers to libssl's for libcaf_openssl's calls, also makes those contexts
// (and no other: the webhook client never sets a cipher list) take a peer's
// end without a close_notify as a plain end of stream, with nothing queued,
// and speak TLS 1.3 only.
extern "C" int SSL_CTX_set_cipher_list(SSL_CTX* context, const char* ciphers) {
  using Real = int (*)(SSL_CTX*, const char*);
  static const auto real = reinterpret_cast<Real>(::dlsym(RTLD_NEXT, "SSL_CTX_set_cipher_list"));
  if (std::strcmp(ciphers, "HIGH:!aNULL:!MD5") == 0) {
    SSL_CTX_set_options(context, SSL_OP_IGNORE_UNEXPECTED_EOF);
    if (SSL_CTX_set_min_proto_version(context, TLS1_3_VERSION) != 1) return 0;
  }
  return real(context, ciphers);
}

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

base::Result<std::uint16_t> publish_gate(caf::actor_system& system, const NetworkOptions& options,
                                         const worker_gate_actor& gate, const std::string& host,
                                         std::uint16_t port) {
  auto published = options.tls() ? caf::openssl::publish(gate, port, host.c_str(), true)
                                 : system.middleman().publish(gate, port, host.c_str(), true);
  if (!published) {
    return base::Error::invalid("cannot listen for workers on " + host + ":" +
                                std::to_string(port) + ": " + system.render(published.error()));
  }
  return *published;
}

caf::io::middleman_actor connector(caf::actor_system& system, const NetworkOptions& options) {
  return options.tls() ? system.openssl_manager().actor_handle()
                       : system.middleman().actor_handle();
}

}  // namespace vouch::actors
