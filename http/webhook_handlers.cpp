#include "http/webhook_handlers.hpp"

#include <boost/json/array.hpp>

#include "base/clock.hpp"
#include "base/ids.hpp"
#include "events/access.hpp"
#include "events/webhook_signature.hpp"
#include "http/json_body.hpp"
#include "http/owned_resource_routes.hpp"
#include "http/query.hpp"
#include "http/reply.hpp"
#include "http/webhook_json.hpp"

namespace vouch::http {
namespace {

// Answers creation and rotation: `status` with the webhook and the plain
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

events::WebhookChanges webhook_changes(JsonBody& body) {
  events::WebhookChanges changes{body.string("url"), body.strings("events"),
                                 body.string("description"), body.boolean("active")};
  if (body.has("secret")) body.reject("secret", "changes only through rotate-secret");
  return changes;
}

constexpr OwnedResource<events::Webhook, events::WebhookChanges> kWebhooks{
    .collection = "/v1/webhooks",
    .items = "webhooks",
    .id_prefix = base::kWebhookIdPrefix,
    .noun = "webhook",
    .to_json = &to_json,
    .read_changes = &webhook_changes,
    .update = &actors::Service::update_webhook,
    .remove = &actors::Service::delete_webhook};

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

void rotate(actors::Service& service, const Request&, const Context& context, Respond respond) {
  const auto* id = resource_id(kWebhooks, context, respond);
  if (!id) return;
  events::RotateWebhookSecret command{*id, context.caller.account, events::new_webhook_secret(),
                                      base::now_millis()};
  auto answer = answer_with_secret(std::move(respond), context.request_id, 200, command.secret);
  service.rotate_webhook_secret(std::move(command), std::move(answer));
}

void list_deliveries(const store::WebhooksView& webhooks, const store::DeliveriesView& deliveries,
                     const Request& request, const Context& context, Respond respond) {
  const auto* id = resource_id(kWebhooks, context, respond);
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
  const auto* id = resource_id(kWebhooks, context, respond);
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
  add_owned_resource_routes(router, kWebhooks, read_scope, write_scope,
                            bind_handler(create, std::ref(service)), service, webhooks);
  router.add({"POST", "/v1/webhooks/{id}/rotate-secret", write_scope, false,
              bind_handler(rotate, std::ref(service))});
  router.add({"GET", "/v1/webhooks/{id}/deliveries", read_scope, false,
              bind_handler(list_deliveries, std::ref(webhooks), std::ref(deliveries))});
  router.add({"POST", "/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver", write_scope, false,
              bind_handler(redeliver, std::ref(service))});
}

}  // namespace vouch::http
