#pragma once

#include <boost/json/object.hpp>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

#include "actors/service.hpp"
#include "base/clock.hpp"
#include "events/owned_resource.hpp"
#include "http/json_body.hpp"
#include "http/query.hpp"
#include "http/reply.hpp"
#include "http/router.hpp"

// The routes that the account-owned resources (projects, webhooks) share:
// list and read from their read model, update and delete through the
// service, each answering with the resource's JSON form.
namespace vouch::http {

// A Service method that carries out `Command` and answers with the Record.
template <class Command, class Record>
using ServiceCommand = void (actors::Service::*)(Command command,
                                                 actors::Service::Callback<Record> done);

// How the API names, shows and changes a resource of type Record.
template <class Record, class Changes>
struct OwnedResource {
  std::string_view collection;  // "/v1/projects"
  std::string_view items;       // "projects": the array of a page
  std::string_view id_prefix;   // base::kProjectIdPrefix
  std::string_view noun;        // "project", as in 404 "no project <id>"
  boost::json::object (*to_json)(const Record& record);
  // Reads an update's changes from its body, recording a field error on the
  // body for each field that is wrong or may not change.
  Changes (*read_changes)(JsonBody& body);
  ServiceCommand<events::Update<Changes>, Record> update;  // &Service::update_project
  ServiceCommand<events::Delete<Record>, Record> remove;   // &Service::delete_project
};

// The path's {id} when it has the form of the resource's ids; otherwise
// answers 404 "no <noun> <id>" and returns nullptr.
template <class Record, class Changes>
const std::string* resource_id(const OwnedResource<Record, Changes>& resource,
                               const Context& context, const Respond& respond) {
  return path_id(context, respond, "id", resource.id_prefix, resource.noun);
}

// Answers a command's result: `status` with the record (and its Location),
// or the command's problem.
template <class Record, class Changes>
actors::Service::Callback<Record> answer_with_record(const OwnedResource<Record, Changes>& resource,
                                                     Respond respond, std::string request_id,
                                                     unsigned status) {
  return answer_with<Record>(std::move(respond), std::move(request_id), status, resource.to_json,
                             std::string(resource.collection));
}

namespace owned_resource_detail {

template <class Record, class Changes, class View>
void list(const OwnedResource<Record, Changes>& resource, const View& view, const Request& request,
          const Context& context, Respond respond) {
  auto query = parse_page_query(request.target);
  if (!query) return respond(error_response(query.error(), context.request_id));
  auto page = view.list(context.caller.account, query->starting_after, query->limit);
  if (!page) return respond(error_response(page.error(), context.request_id));
  respond(page_response(resource.items, *page, resource.to_json));
}

template <class Record, class Changes, class View>
void read(const OwnedResource<Record, Changes>& resource, const View& view, const Request&,
          const Context& context, Respond respond) {
  const auto* id = resource_id(resource, context, respond);
  if (!id) return;
  auto record = view.get(context.caller.account, *id);
  if (!record) return respond(error_response(record.error(), context.request_id));
  respond(json_response(200, resource.to_json(*record)));
}

template <class Record, class Changes>
void update(const OwnedResource<Record, Changes>& resource, actors::Service& service,
            const Request& request, const Context& context, Respond respond) {
  const auto* id = resource_id(resource, context, respond);
  if (!id) return;
  auto body = JsonBody::parse(request.body);
  if (!body) return respond(error_response(body.error(), context.request_id));
  events::Update<Changes> command{*id, context.caller.account, resource.read_changes(*body),
                                  base::now_millis()};
  if (!body->errors().empty()) return respond(error_response(body->error(), context.request_id));
  (service.*resource.update)(std::move(command), answer_with_record(resource, std::move(respond),
                                                                    context.request_id, 200));
}

template <class Record, class Changes>
void remove(const OwnedResource<Record, Changes>& resource, actors::Service& service,
            const Request&, const Context& context, Respond respond) {
  const auto* id = resource_id(resource, context, respond);
  if (!id) return;
  (service.*resource.remove)(
      events::Delete<Record>{*id, context.caller.account, base::now_millis()},
      answer_with_record(resource, std::move(respond), context.request_id, 204));
}

}  // namespace owned_resource_detail

// The five routes of `resource` (add_resource_routes): `create` on POST,
// and list, read (from `view`), update and delete (through `service`) the
// caller's records. REQUIRES: `service` and `view` outlive the router.
template <class Record, class Changes, class View>
void add_owned_resource_routes(Router& router, const OwnedResource<Record, Changes>& resource,
                               const std::string& read_scope, const std::string& write_scope,
                               Handler create, actors::Service& service, const View& view) {
  namespace detail = owned_resource_detail;
  add_resource_routes(
      router, std::string(resource.collection), read_scope, write_scope,
      {.create = std::move(create),
       .list = bind_handler(detail::list<Record, Changes, View>, resource, std::cref(view)),
       .read = bind_handler(detail::read<Record, Changes, View>, resource, std::cref(view)),
       .update = bind_handler(detail::update<Record, Changes>, resource, std::ref(service)),
       .remove = bind_handler(detail::remove<Record, Changes>, resource, std::ref(service))});
}

}  // namespace vouch::http
