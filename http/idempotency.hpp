#pragma once

#include <mutex>
#include <string>
#include <unordered_set>

#include "actors/service.hpp"
#include "http/message.hpp"
#include "http/router.hpp"
#include "store/idempotency_view.hpp"

namespace vouch::http {

// Idempotency keys on POSTs, with Stripe's semantics (docs/decisions.md):
// - the first successful (2xx) response to a key is recorded through the
//   event log, durably, before the client sees it;
// - the same key with the same request (method, target, body) within 24 h
//   answers that response again, with `Idempotent-Replayed: true`, and the
//   handler does not run;
// - the same key with another request answers 422 idempotency_key_reused;
// - a request while another with its key is being answered: 409
//   idempotency_key_in_use;
// - an error response records nothing: the key stays free for a retry.
// Keys are per account. Thread-safe.
class Idempotency {
 public:
  // REQUIRES: both outlive this object and every response it forwards.
  Idempotency(actors::Service& service, const store::IdempotencyView& view)
      : service_(service), view_(view) {}

  // REQUIRES: request.idempotency_key is not empty; context.caller is set.
  void handle(const Request& request, const Context& context, const Handler& handler,
              Respond respond);

 private:
  bool claim(const std::string& stream);
  void release(const std::string& stream);

  actors::Service& service_;
  const store::IdempotencyView& view_;
  std::mutex mutex_;
  std::unordered_set<std::string> in_flight_;  // idempotency streams being answered
};

}  // namespace vouch::http
