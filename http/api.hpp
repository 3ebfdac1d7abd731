#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <string>

#include "actors/service.hpp"
#include "http/auth.hpp"
#include "http/idempotency.hpp"
#include "http/message.hpp"
#include "http/rate_limiter.hpp"
#include "http/router.hpp"
#include "store/database.hpp"
#include "store/event_log.hpp"
#include "store/read_models.hpp"

namespace vouch::http {

// Turns a request into a response; knows nothing of sockets. Every answer
// carries X-Request-Id; authenticated ones carry the X-RateLimit-* headers.
// In order: route (404/405), authenticate (401), rate limit (429), scope
// (403), content type (415), idempotency key (POST: see Idempotency), then
// the route's handler. Thread-safe.
class Api {
 public:
  struct Options {
    // Off only for benchmarks and trusted single-tenant deployments; the
    // X-RateLimit-* headers are then not sent.
    bool rate_limits = true;
    // The memory budget (--memory-mb) /metrics reports; 0: none.
    std::size_t memory_budget_bytes = 0;
  };

  // REQUIRES: all four outlive the Api.
  Api(actors::Service& service, store::ReadModels& models, const store::Database& database,
      const store::EventLog& log, Options options);

  void handle(Request request, Respond respond);

  // Prometheus text exposition of the service's counters.
  std::string metrics() const;

 private:
  // What the access log says of a request besides its answer's status.
  struct AccessRecord {
    std::string method;
    std::string route;    // the matched pattern ("/v1/projects/{id}"); empty when none
    std::string account;  // empty until authenticated
    std::chrono::steady_clock::time_point start;
  };

  void count(unsigned status);
  static void log_access(const AccessRecord& access, unsigned status, std::string_view request_id);

  Options options_;
  Router router_;
  Authenticator authenticator_;
  RateLimiter limiter_;
  Idempotency idempotency_;
  store::ReadModels& models_;
  const store::Database& database_;
  const store::EventLog& log_;
  const actors::RunnerStats& runner_stats_;
  const actors::WorkerStats& worker_stats_;
  const actors::ProjectActorStats& project_actor_stats_;
  const runner_cache::TransformCache* transform_cache_;  // nullptr without one on this machine
  const runner_cache::RunnerCodeCache* code_cache_;      // nullptr without one on this machine
  std::array<std::atomic<std::uint64_t>, 6> responses_by_class_{};  // index: status / 100
};

}  // namespace vouch::http
