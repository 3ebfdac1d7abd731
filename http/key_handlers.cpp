#include "http/key_handlers.hpp"

#include <boost/json/array.hpp>

#include "base/clock.hpp"
#include "base/ids.hpp"
#include "events/access.hpp"
#include "http/json_body.hpp"
#include "http/reply.hpp"

namespace vouch::http {
namespace {

void issue(actors::Service& service, const Request& request, const Context& context,
           Respond respond) {
  auto body = JsonBody::parse(request.body, {"account", "scopes"});
  if (!body) return respond(error_response(body.error(), context.request_id));
  actors::IssueKey command;
  command.account = body->string("account").value_or("");
  command.scopes = body->strings("scopes").value_or(std::vector<std::string>{});
  command.name = body->string("name").value_or("");
  if (auto plan = body->string("plan")) {
    if (auto parsed = events::parse_plan(*plan)) {
      command.plan = *parsed;
    } else {
      body->reject("plan", "must be one of free, pro, enterprise");
    }
  }
  command.at = base::now_millis();
  if (!body->errors().empty()) return respond(error_response(body->error(), context.request_id));
  service.issue_key(std::move(command),
                    [respond = std::move(respond), request_id = context.request_id](auto result) {
                      if (!result) return respond(error_response(result.error(), request_id));
                      Response response = json_response(201, to_json(*result));
                      response.set_header("Location", "/v1/keys/" + result->record.key_id);
                      response.secret = BodySecret{result->secret, {}, {}};
                      respond(std::move(response));
                    });
}

void revoke(actors::Service& service, const Request&, const Context& context, Respond respond) {
  const auto* id = path_id(context, respond, "id", base::kKeyIdPrefix, "key");
  if (!id) return;
  service.revoke_key(actors::RevokeKey{*id, base::now_millis()},
                     [respond = std::move(respond), request_id = context.request_id](auto result) {
                       if (!result) return respond(error_response(result.error(), request_id));
                       respond(empty_response(204));
                     });
}

}  // namespace

boost::json::object to_json(const actors::IssuedKey& issued) {
  return {{"id", issued.record.key_id},
          {"key", issued.secret},
          {"account", issued.record.account},
          {"plan", events::to_string(issued.plan)},
          {"scopes", boost::json::array(issued.record.scopes.begin(), issued.record.scopes.end())},
          {"name", issued.record.name},
          {"created", base::format_timestamp(issued.record.created)}};
}

void add_key_routes(Router& router, actors::Service& service) {
  const std::string admin(events::kScopeAdmin);
  router.add({"POST", "/v1/keys", admin, true, bind_handler(issue, std::ref(service))});
  router.add({"DELETE", "/v1/keys/{id}", admin, false, bind_handler(revoke, std::ref(service))});
}

}  // namespace vouch::http
