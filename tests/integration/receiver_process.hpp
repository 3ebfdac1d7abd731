#pragma once

#include <sys/types.h>

#include <boost/json/array.hpp>
#include <boost/json/value.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace vouch::testing {

// tests/webhooks/receiver.js, started with node on 127.0.0.1:0 (plain, or
// TLS with `cert` and `key`); it records deliveries and verifies their
// signatures with node:crypto and the standardwebhooks package.
class ReceiverProcess {
 public:
  explicit ReceiverProcess(std::vector<std::string> extra_args = {});
  ~ReceiverProcess();  // SIGKILLs it
  ReceiverProcess(const ReceiverProcess&) = delete;
  ReceiverProcess& operator=(const ReceiverProcess&) = delete;

  std::uint16_t port() const { return port_; }  // where deliveries go (HTTPS with a cert)

  // What /h/NAME received, in arrival order.
  boost::json::array requests(const std::string& name) const;
  // Per request of /h/NAME: {eventId, attempt, checks: [{service, servicePrevious, standard}]}
  // with one check per secret.
  boost::json::array verify(const std::string& name, const std::vector<std::string>& secrets) const;

 private:
  pid_t pid_ = -1;
  std::uint16_t port_ = 0;
  std::uint16_t control_port_ = 0;  // plain HTTP, for requests() and verify()
};

}  // namespace vouch::testing
