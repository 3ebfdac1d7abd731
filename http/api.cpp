#include "http/api.hpp"

#include <boost/json/serialize.hpp>
#include <chrono>
#include <memory>

#include "events/clock.hpp"
#include "events/ids.hpp"
#include "http/coverage_handlers.hpp"
#include "http/event_handlers.hpp"
#include "http/import_handlers.hpp"
#include "http/key_handlers.hpp"
#include "http/openapi_document.hpp"
#include "http/project_handlers.hpp"
#include "http/query.hpp"
#include "http/reply.hpp"
#include "http/test_handlers.hpp"
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

Api::Api(actors::Service& service, store::ReadModels& models, const store::EventLog& log,
         Options options)
    : options_(options),
      authenticator_(models.access()),
      idempotency_(service, models.idempotency()),
      models_(models),
      log_(log),
      runner_stats_(service.runner_stats()),
      worker_stats_(service.worker_stats()) {
  router_.add({"GET", "/healthz", "", false, [](const Request&, const Context&, Respond respond) {
                 respond(json_response(200, boost::json::object{{"status", "ok"}}));
               }});
  router_.add(
      {"GET", "/readyz", "", false, [this](const Request&, const Context&, Respond respond) {
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
  context.request_id = events::new_id(events::kRequestIdPrefix);
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
    if (grant.error().code != events::ErrorCode::kNotFound) {
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
        limiter_.check(context.caller.account, context.caller.plan, events::now_millis() / 1000);
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

namespace {

// A Prometheus label value: backslash, double quote and newline escaped.
std::string label_value(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace

std::string Api::metrics() const {
  const auto stats = log_.stats();
  std::string out;
  // A sample without labels, after its TYPE line.
  const auto metric = [&out](std::string_view name, std::string_view type, auto value) {
    out += "# TYPE ";
    out += name;
    out += " ";
    out += type;
    out += "\n";
    out += name;
    out += " " + std::to_string(value) + "\n";
  };
  out += "# TYPE vouch_http_responses_total counter\n";
  for (std::size_t i = 1; i < responses_by_class_.size(); ++i) {
    out += "vouch_http_responses_total{class=\"" + std::to_string(i) + "xx\"} " +
           std::to_string(responses_by_class_[i].load()) + "\n";
  }
  metric("vouch_log_appends_total", "counter", stats.appends);
  metric("vouch_log_syncs_total", "counter", stats.syncs);
  metric("vouch_log_events_total", "counter", stats.events);
  metric("vouch_log_conflicts_total", "counter", stats.conflicts);
  metric("vouch_log_position", "gauge", log_.last_position());
  const auto& runner = runner_stats_;
  metric("vouch_generations_running", "gauge", runner.generations_running.load());
  metric("vouch_generations_waiting", "gauge", runner.generations_waiting.load());
  metric("vouch_generations_refused_total", "counter", runner.generations_refused.load());
  metric("vouch_runs_executing", "gauge", runner.runs_executing.load());
  metric("vouch_runs_waiting", "gauge", runner.runs_waiting.load());
  metric("vouch_runners_ready", "gauge", runner.runners_ready.load());
  metric("vouch_runners_starting", "gauge", runner.runners_starting.load());
  metric("vouch_runner_start_failures_total", "counter", runner.runner_start_failures.load());
  const auto& workers = worker_stats_;
  metric("vouch_workers_remote", "gauge", workers.remote_workers.load());
  metric("vouch_worker_generator_slots", "gauge", workers.generator_slots.load());
  metric("vouch_worker_executor_slots", "gauge", workers.executor_slots.load());
  metric("vouch_worker_generations_in_flight", "gauge", workers.generations_in_flight.load());
  metric("vouch_worker_runs_in_flight", "gauge", workers.runs_in_flight.load());
  metric("vouch_worker_runs_waiting", "gauge", workers.runs_waiting.load());
  metric("vouch_worker_jobs_retried_total", "counter", workers.jobs_retried.load());
  metric("vouch_worker_jobs_lost_total", "counter", workers.jobs_lost.load());
  metric("vouch_workers_lost_total", "counter", workers.workers_lost.load());
  out += "# TYPE vouch_worker_slots gauge\n";
  for (const auto& [name, slots] : workers.slots()) {
    for (const auto& [kind, count] :
         {std::pair{"generate", slots.generators}, std::pair{"run", slots.executors}}) {
      out += "vouch_worker_slots{worker=\"" + label_value(name) + "\",kind=\"" + kind +
             "\",remote=\"" + (slots.remote ? "true" : "false") + "\"} " + std::to_string(count) +
             "\n";
    }
  }
  metric("vouch_projection_checkpoint", "gauge", models_.projector().checkpoint());
  return out;
}

}  // namespace vouch::http
