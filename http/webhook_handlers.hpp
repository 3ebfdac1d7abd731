#pragma once

#include "actors/service.hpp"
#include "http/router.hpp"
#include "store/deliveries_view.hpp"
#include "store/webhooks_view.hpp"

namespace vouch::http {

// POST/GET /v1/webhooks, GET/PUT/DELETE /v1/webhooks/{id},
// POST /v1/webhooks/{id}/rotate-secret, GET /v1/webhooks/{id}/deliveries and
// POST /v1/webhooks/{id}/deliveries/{deliveryId}/redeliver. Writes go to the
// webhook actors through `service`; reads come from the read models.
// REQUIRES: all three outlive the router.
void add_webhook_routes(Router& router, actors::Service& service,
                        const store::WebhooksView& webhooks,
                        const store::DeliveriesView& deliveries);

}  // namespace vouch::http
