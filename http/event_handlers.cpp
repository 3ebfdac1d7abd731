#include "http/event_handlers.hpp"

#include "base/ids.hpp"
#include "events/access.hpp"
#include "events/webhook.hpp"
#include "http/query.hpp"
#include "http/reply.hpp"

namespace vouch::http {
namespace {

void list(const store::EventsView& events, const Request& request, const Context& context,
          Respond respond) {
  auto query = parse_page_query(request.target);
  if (!query) return respond(error_response(query.error(), context.request_id));
  store::EventsView::Filter filter;
  filter.starting_after = query->starting_after;
  filter.type = query_param(request.target, "type");
  filter.project_id = query_param(request.target, "projectId");
  std::vector<base::FieldError> errors;
  if (filter.type && !events::is_valid_event_pattern(*filter.type)) {
    errors.push_back(
        {"type", "is not an event type or pattern (test.*, project.*, *): " + *filter.type});
  }
  if (filter.project_id && !base::looks_like_id(*filter.project_id, base::kProjectIdPrefix)) {
    errors.push_back({"projectId", "is not a project id: " + *filter.project_id});
  }
  if (!errors.empty()) {
    return respond(error_response(
        base::Error::invalid("invalid query parameters", std::move(errors)), context.request_id));
  }
  auto page = events.list(context.caller.account, filter, query->limit);
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
              bind_handler(list, std::ref(events))});
}

}  // namespace vouch::http
