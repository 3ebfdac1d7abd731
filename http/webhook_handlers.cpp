#include "http/webhook_handlers.hpp"

#include <boost/json/array.hpp>

#include "base/clock.hpp"
#include "base/ids.hpp"
#include "events/scopes.hpp"
#include "events/webhook_signature.hpp"
#include "http/json_body.hpp"
#include "http/query.hpp"
#include "http/reply.hpp"
#include "http/webhook_json.hpp"

namespace vouch::http {
namespace {

// Answers a command's result: `status` with the webhook, or its problem.
actors::Service::Callback<events::Webhook> answer_with_webhook(Respond respond,
                                                               std::string request_id,
                                                               unsigned status) {
  return answer_with<events::Webhook>(
      std::move(respond), std::move(request_id), status,
      [](const events::Webhook& webhook) { return to_json(webhook); }, "/v1/webhooks");
}

// The same for creation and rotation, whose answer also shows the plain
// secret `plain` the command carried (the only time it is shown). The
// response names its sealed form, which an idempotency record keeps instead.
actors::Service::Callback<events::Webhook> answer_with_secret(Respond respond,
                                                              std::string request_id,
                                                              unsigned status, std::string plain) {
  return [respond = std::move(respond), request_id = std::move(request_id), status,
          plain = std::move(plain)](base::Result<events::Webhook> result) {
    if (!result) return respond(error_response(result.error(), request_id));
    auto body = to_json(*result);
    body["secret"] = plain;
    Response response = json_response(status, body);
    response.set_header("Location", "/v1/webhooks/" + result->id);
    response.secret = BodySecret{plain, result->id, result->secret};
    respond(std::move(response));
  };
}

const std::string* webhook_id(const Context& context, const Respond& respond) {
  return path_id(context, respond, "id", base::kWebhookIdPrefix, "webhook");
}

void create(actors::Service& service, const Request& request, const Context& context,
            Respond respond) {
  auto body = JsonBody::parse(request.body, {"url", "events"});
  if (!body) return respond(error_response(body.error(), context.request_id));
  events::CreateWebhook command;
  command.id = base::new_id(base::kWebhookIdPrefix);
  command.account = context.caller.account;
  command.url = body->string("url").value_or("");
  auto patterns = body->strings("events");
  command.description = body->string("description").value_or("");
  command.secret = events::new_webhook_secret();
  command.at = base::now_millis();
  if (!body->errors().empty()) return respond(error_response(body->error(), context.request_id));
  command.events = std::move(patterns).value_or(std::vector<std::string>{});
  auto answer = answer_with_secret(std::move(respond), context.request_id, 201, command.secret);
  service.create_webhook(std::move(command), std::move(answer));
}

void update(actors::Service& service, const Request& request, const Context& context,
            Respond respond) {
  const auto* id = webhook_id(context, respond);
  if (!id) return;
  auto body = JsonBody::parse(request.body);
  if (!body) return respond(error_response(body.error(), context.request_id));
  events::UpdateWebhook command;
  command.id = *id;
  command.account = context.caller.account;
  command.url = body->string("url");
  command.events = body->strings("events");
  command.description = body->string("description");
  command.active = body->boolean("active");
  command.at = base::now_millis();
  if (body->has("secret")) body->reject("secret", "changes only through rotate-secret");
  if (!body->errors().empty()) return respond(error_response(body->error(), context.request_id));
  service.update_webhook(std::move(command),
                         answer_with_webhook(std::move(respond), context.request_id, 200));
}

void remove(actors::Service& service, const Request&, const Context& context, Respond respond) {
  const auto* id = webhook_id(context, respond);
  if (!id) return;
  service.delete_webhook(events::DeleteWebhook{*id, context.caller.account, base::now_millis()},
                         answer_with_webhook(std::move(respond), context.request_id, 204));
}

void rotate(actors::Service& service, const Request&, const Context& context, Respond respond) {
  const auto* id = webhook_id(context, respond);
  if (!id) return;
  events::RotateWebhookSecret command{*id, context.caller.account, events::new_webhook_secret(),
                                      base::now_millis()};
  auto answer = answer_with_secret(std::move(respond), context.request_id, 200, command.secret);
  service.rotate_webhook_secret(std::move(command), std::move(answer));
}

void read(const store::WebhooksView& webhooks, const Request&, const Context& context,
          Respond respond) {
  const auto* id = webhook_id(context, respond);
  if (!id) return;
  auto webhook = webhooks.get(context.caller.account, *id);
  if (!webhook) return respond(error_response(webhook.error(), context.request_id));
  respond(json_response(200, to_json(*webhook)));
}

void list(const store::WebhooksView& webhooks, const Request& request, const Context& context,
          Respond respond) {
  auto query = parse_page_query(request.target);
  if (!query) return respond(error_response(query.error(), context.request_id));
  auto page = webhooks.list(context.caller.account, query->starting_after, query->limit);
  if (!page) return respond(error_response(page.error(), context.request_id));
  respond(page_response("webhooks", *page, [](const auto& item) { return to_json(item); }));
}

void list_deliveries(const store::WebhooksView& webhooks, const store::DeliveriesView& deliveries,
                     const Request& request, const Context& context, Respond respond) {
  const auto* id = webhook_id(context, respond);
  if (!id) return;
  auto query = parse_page_query(request.target);
  if (!query) return respond(error_response(query.error(), context.request_id));
  auto webhook = webhooks.get(context.caller.account, *id);
  if (!webhook) return respond(error_response(webhook.error(), context.request_id));
  auto page = deliveries.list(*id, query->starting_after, query->limit);
  if (!page) return respond(error_response(page.error(), context.request_id));
  respond(page_response("deliveries", *page, [](const auto& item) { return to_json(item); }));
}

void redeliver(actors::Service& service, const Request&, const Context& context, Respond respond) {
  const auto* id = webhook_id(context, respond);
  if (!id) return;
  const auto* delivery_id =
      path_id(context, respond, "deliveryId", base::kDeliveryIdPrefix, "delivery");
  if (!delivery_id) return;
  service.redeliver(actors::RedeliverWebhook{*id, *delivery_id, context.caller.account},
                    answer_with<actors::RedeliveryQueued>(
                        std::move(respond), context.request_id, 202,
                        [](const actors::RedeliveryQueued& queued) { return to_json(queued); }));
}

}  // namespace

void add_webhook_routes(Router& router, actors::Service& service,
                        const store::WebhooksView& webhooks,
                        const store::DeliveriesView& deliveries) {
  const std::string read_scope(events::kScopeWebhooksRead);
  const std::string write_scope(events::kScopeWebhooksWrite);
  add_resource_routes(router, "/v1/webhooks", read_scope, write_scope,
                      {.create = bind_handler(create, std::ref(service)),
                       .list = bind_handler(list, std::ref(webhooks)),
                       .read = bind_handler(read, std::ref(webhooks)),
                       .update = bind_handler(update, std::ref(service)),
                       .remove = bind_handler(remove, std::ref(service))});
  router.add({"POST", "/v1/webhooks/{id}/rotate-secret", write_scope, false,
              bind_handler(rotate, std::ref(service))});
  router.add({"GET", "/v1/webhooks/{id}/deliveries", read_scope, false,
              bind_handler(list_deliveries, std::ref(webhooks), std::ref(deliveries))});
  router.add({"POST", "/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver", write_scope, false,
              bind_handler(redeliver, std::ref(service))});
}

}  // namespace vouch::http
