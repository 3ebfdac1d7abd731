#include "http/event_handlers.hpp"

#include <algorithm>

#include "events/scopes.hpp"
#include "events/webhook.hpp"
#include "http/query.hpp"
#include "http/reply.hpp"

namespace vouch::http {
namespace {

void list(const store::EventsView& events, const Request& request, const Context& context,
          Respond respond) {
  auto query = parse_page_query(request.target);
  if (!query) return respond(error_response(query.error(), context.request_id));
  auto type = query_param(request.target, "type");
  const auto& known = events::public_event_types();
  if (type && std::find(known.begin(), known.end(), *type) == known.end()) {
    return respond(error_response(
        events::Error::invalid("unknown event type", {{"type", "is not an event type: " + *type}}),
        context.request_id));
  }
  auto page = events.list(context.caller.account, query->starting_after, type, query->limit);
  if (!page) return respond(error_response(page.error(), context.request_id));
  // The envelopes are stored as JSON text; the page is spliced from them.
  Response response;
  response.status = 200;
  response.body = "{\"events\":[";
  for (std::size_t i = 0; i < page->items.size(); ++i) {
    if (i != 0) response.body += ',';
    response.body += page->items[i];
  }
  response.body += "],\"hasMore\":";
  response.body += page->has_more ? "true}" : "false}";
  respond(std::move(response));
}

}  // namespace

void add_event_routes(Router& router, const store::EventsView& events) {
  router.add({"GET", "/v1/events", std::string(events::kScopeEventsRead), false,
              [&events](const Request& request, const Context& context, Respond respond) {
                list(events, request, context, std::move(respond));
              }});
}

}  // namespace vouch::http
