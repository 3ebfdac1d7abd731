#include "http/api.hpp"

#include <boost/json/serialize.hpp>
#include <chrono>
#include <memory>

#include "base/clock.hpp"
#include "base/ids.hpp"
#include "http/console_handlers.hpp"
#include "http/coverage_handlers.hpp"
#include "http/event_handlers.hpp"
#include "http/generated_test_handlers.hpp"
#include "http/import_handlers.hpp"
#include "http/key_handlers.hpp"
#include "http/metrics.hpp"
#include "http/openapi_document.hpp"
#include "http/project_handlers.hpp"
#include "http/query.hpp"
#include "http/reply.hpp"
#include "http/webhook_handlers.hpp"
#include "log/log.hpp"

namespace vouch::http {
namespace {

bool is_json(std::string_view content_type) {
  const auto semicolon = content_type.find(';');
  std::string_view media = content_type.substr(0, semicolon);
  while (!media.empty() && media.back() == ' ') media.remove_suffix(1);
  std::string lower(media);
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower == "application/json";
}

void add_rate_headers(Response& response, const RateDecision& decision) {
  response.set_header("X-RateLimit-Limit", std::to_string(decision.limit));
  response.set_header("X-RateLimit-Remaining", std::to_string(decision.remaining));
  response.set_header("X-RateLimit-Reset", std::to_string(decision.reset));
  if (!decision.allowed) response.set_header("Retry-After", std::to_string(decision.retry_after));
}

}  // namespace

Api::Api(actors::Service& service, store::ReadModels& models, const store::Database& database,
         const store::EventLog& log, Options options)
    : options_(options),
      authenticator_(models.access()),
      idempotency_(service, models.idempotency()),
      models_(models),
      database_(database),
      log_(log),
      runner_stats_(service.runner_stats()),
      worker_stats_(service.worker_stats()),
      project_actor_stats_(service.project_actor_stats()),
      transform_cache_(service.runner().transform_cache.get()),
      code_cache_(service.runner().code_cache.get()) {
  router_.add({"GET", "/healthz", "", false, [](const Request&, const Context&, Respond respond) {
                 respond(json_response(200, boost::json::object{{"status", "ok"}}));
               }});
  router_.add(
      {"GET", "/readyz", "", false, [this](const Request&, const Context&, Respond respond) {
         if (const auto storage = log_.storage_health(); !storage.writable) {
           return respond(json_response(
               503, boost::json::object{{"status", "degraded"}, {"reason", storage.problem}}));
         }
         const auto& projector = models_.projector();
         if (!projector.healthy()) {
           return respond(json_response(
               503, boost::json::object{{"status", "degraded"}, {"reason", projector.problem()}}));
         }
         // All work on workers: not ready while none offers a slot of a kind.
         if (worker_stats_.generator_slots.load() == 0 ||
             worker_stats_.executor_slots.load() == 0) {
           return respond(json_response(
               503, boost::json::object{{"status", "degraded"},
                                        {"reason", worker_stats_.generator_slots.load() == 0
                                                       ? "no worker offers a generator slot"
                                                       : "no worker offers an executor slot"}}));
         }
         respond(json_response(200, boost::json::object{{"status", "ready"}}));
       }});
  router_.add(
      {"GET", "/metrics", "", false, [this](const Request&, const Context&, Respond respond) {
         Response response;
         response.content_type = "text/plain; version=0.0.4";
         response.body = metrics();
         respond(std::move(response));
       }});
  router_.add(
      {"GET", "/v1/openapi.json", "", false, [](const Request&, const Context&, Respond respond) {
         Response response;
         response.body = openapi_document();
         respond(std::move(response));
       }});
  add_console_routes(router_);
  add_project_routes(router_, service, models.projects());
  add_import_routes(router_, service, models.projects());
  add_key_routes(router_, service);
  add_test_routes(router_, service, models.projects(), models.tests(), models.runs());
  if (const auto* reports = service.runner().coverage_reports) {
    add_coverage_routes(router_, *reports, models.runs());
  }
  add_event_routes(router_, models.events());
  add_webhook_routes(router_, service, models.webhooks(), models.deliveries());
}

void Api::log_access(const AccessRecord& access, unsigned status, std::string_view request_id) {
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::steady_clock::now() - access.start)
                          .count();
  const std::string route = access.route.empty() ? "(none)" : access.route;
  log::Fields fields;
  fields["method"] = access.method;
  fields["route"] = route;
  fields["status"] = status;
  fields["durationUs"] = micros;
  fields["requestId"] = request_id;
  if (!access.account.empty()) fields["account"] = access.account;
  log::info("access", access.method + " " + route + " " + std::to_string(status),
            std::move(fields));
}

void Api::count(unsigned status) {
  const auto index = std::min<std::size_t>(status / 100, responses_by_class_.size() - 1);
  responses_by_class_[index].fetch_add(1, std::memory_order_relaxed);
}

void Api::handle(Request request, Respond respond) {
  Context context;
  context.request_id = base::new_id(base::kRequestIdPrefix);
  // Filled in as the request is routed and authenticated, logged with the answer.
  auto access = std::make_shared<AccessRecord>();
  access->method = request.method;
  access->start = std::chrono::steady_clock::now();
  // Every answer goes through here: stamp the request id, count and log it.
  Respond finish = [this, respond = std::move(respond), request_id = context.request_id,
                    access](Response response) {
    response.set_header("X-Request-Id", request_id);
    count(response.status);
    log_access(*access, response.status, request_id);
    respond(std::move(response));
  };
  const auto fail = [&](Problem problem) { finish(to_response(problem, context.request_id)); };

  const auto path = path_of(request.target);
  if (!path) return fail({400, "invalid_request", "the request target is not a valid URL", {}});
  const auto match = router_.match(request.method, *path);
  if (!match) return fail({404, "not_found", "no such resource: " + *path, {}});
  if (!match->route) {
    Response response =
        to_response({405, "method_not_allowed", request.method + " is not allowed on " + *path, {}},
                    context.request_id);
    response.set_header("Allow", match->allowed);
    return finish(std::move(response));
  }
  const Route& route = *match->route;
  access->route = route.pattern;
  context.params = match->params;
  if (route.scope.empty()) return route.handler(request, context, std::move(finish));

  auto grant = authenticator_.authenticate(request.authorization);
  if (!grant) {
    if (grant.error().code != base::ErrorCode::kNotFound) {
      return finish(error_response(grant.error(), context.request_id));
    }
    Response response =
        to_response({401, "unauthenticated", grant.error().message, {}}, context.request_id);
    response.set_header("WWW-Authenticate", "Bearer");
    return finish(std::move(response));
  }
  context.caller = std::move(grant).value();
  access->account = context.caller.account;

  RateDecision decision;
  Respond limited = std::move(finish);
  if (options_.rate_limits) {
    decision =
        limiter_.check(context.caller.account, context.caller.plan, base::now_millis() / 1000);
    limited = [finish = std::move(limited), decision](Response response) {
      add_rate_headers(response, decision);
      finish(std::move(response));
    };
  }
  if (!decision.allowed) {
    return limited(to_response({429,
                                "rate_limited",
                                "the plan's request limit is reached; retry after " +
                                    std::to_string(decision.retry_after) + " s",
                                {}},
                               context.request_id));
  }
  if (!has_scope(context.caller, route.scope)) {
    return limited(
        to_response({403, "forbidden", "the API key lacks the scope \"" + route.scope + "\"", {}},
                    context.request_id));
  }
  if (route.has_body && !is_json(request.content_type) &&
      !(route.accepts_gzip && is_gzip(request.content_type))) {
    return limited(to_response({415,
                                "unsupported_media_type",
                                route.accepts_gzip ? "send the body as Content-Type: "
                                                     "application/json or application/gzip"
                                                   : "send the body as Content-Type: "
                                                     "application/json",
                                {}},
                               context.request_id));
  }
  if (request.method == "POST" && !request.idempotency_key.empty()) {
    return idempotency_.handle(request, context, route.handler, std::move(limited));
  }
  route.handler(request, context, std::move(limited));
}

std::string Api::metrics() const {
  return metrics_text(
      {log_, models_.projector(), runner_stats_, worker_stats_, transform_cache_, code_cache_,
       responses_by_class_,
       MemorySources{options_.memory_budget_bytes, database_, models_, project_actor_stats_}});
}

}  // namespace vouch::http
