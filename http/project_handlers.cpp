#include "http/project_handlers.hpp"

#include <boost/json/array.hpp>

#include "base/clock.hpp"
#include "base/ids.hpp"
#include "events/scopes.hpp"
#include "http/json_body.hpp"
#include "http/project_json.hpp"
#include "http/query.hpp"
#include "http/reply.hpp"

namespace vouch::http {
namespace {

// Answers a command's result: `status` with the project, or its problem.
actors::Service::Callback<events::Project> answer_with_project(Respond respond,
                                                               std::string request_id,
                                                               unsigned status) {
  return answer_with<events::Project>(
      std::move(respond), std::move(request_id), status,
      [](const events::Project& project) { return to_json(project); }, "/v1/projects");
}

const std::string* project_id(const Context& context, const Respond& respond) {
  return path_id(context, respond, "id", base::kProjectIdPrefix, "project");
}

void create(actors::Service& service, const Request& request, const Context& context,
            Respond respond) {
  auto body = JsonBody::parse(request.body, {"name"});
  if (!body) return respond(error_response(body.error(), context.request_id));
  events::CreateProject command;
  command.id = base::new_id(base::kProjectIdPrefix);
  command.account = context.caller.account;
  command.name = body->string("name").value_or("");
  command.repository = body->string("repository").value_or("");
  command.framework = body->string("config.framework");
  command.threshold = body->number("config.coverage.threshold");
  command.at = base::now_millis();
  if (!body->errors().empty()) return respond(error_response(body->error(), context.request_id));
  service.create_project(std::move(command),
                         answer_with_project(std::move(respond), context.request_id, 201));
}

void update(actors::Service& service, const Request& request, const Context& context,
            Respond respond) {
  const auto* id = project_id(context, respond);
  if (!id) return;
  auto body = JsonBody::parse(request.body);
  if (!body) return respond(error_response(body.error(), context.request_id));
  events::UpdateProject command;
  command.id = *id;
  command.account = context.caller.account;
  command.name = body->string("name");
  command.framework = body->string("config.framework");
  command.threshold = body->number("config.coverage.threshold");
  command.at = base::now_millis();
  if (body->has("repository")) body->reject("repository", "is set at creation and cannot change");
  if (!body->errors().empty()) return respond(error_response(body->error(), context.request_id));
  service.update_project(std::move(command),
                         answer_with_project(std::move(respond), context.request_id, 200));
}

void remove(actors::Service& service, const Request&, const Context& context, Respond respond) {
  const auto* id = project_id(context, respond);
  if (!id) return;
  service.delete_project(events::DeleteProject{*id, context.caller.account, base::now_millis()},
                         answer_with_project(std::move(respond), context.request_id, 204));
}

void read(const store::ProjectsView& projects, const Request&, const Context& context,
          Respond respond) {
  const auto& id = context.params.at("id");
  auto project = projects.get(context.caller.account, id);
  if (!project) return respond(error_response(project.error(), context.request_id));
  respond(json_response(200, to_json(*project)));
}

void list(const store::ProjectsView& projects, const Request& request, const Context& context,
          Respond respond) {
  auto query = parse_page_query(request.target);
  if (!query) return respond(error_response(query.error(), context.request_id));
  auto page = projects.list(context.caller.account, query->starting_after, query->limit);
  if (!page) return respond(error_response(page.error(), context.request_id));
  respond(page_response("projects", *page, [](const auto& item) { return to_json(item); }));
}

}  // namespace

void add_project_routes(Router& router, actors::Service& service,
                        const store::ProjectsView& projects) {
  add_resource_routes(router, "/v1/projects", std::string(events::kScopeProjectsRead),
                      std::string(events::kScopeProjectsWrite),
                      {.create = bind_handler(create, std::ref(service)),
                       .list = bind_handler(list, std::ref(projects)),
                       .read = bind_handler(read, std::ref(projects)),
                       .update = bind_handler(update, std::ref(service)),
                       .remove = bind_handler(remove, std::ref(service))});
}

}  // namespace vouch::http
