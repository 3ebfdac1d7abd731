#include "http/project_handlers.hpp"

#include "base/clock.hpp"
#include "base/ids.hpp"
#include "events/access.hpp"
#include "http/json_body.hpp"
#include "http/owned_resource_routes.hpp"
#include "http/project_json.hpp"
#include "http/reply.hpp"

namespace vouch::http {
namespace {

events::ProjectChanges project_changes(JsonBody& body) {
  events::ProjectChanges changes{body.string("name"), body.string("config.framework"),
                                 body.number("config.coverage.threshold")};
  if (body.has("repository")) body.reject("repository", "is set at creation and cannot change");
  return changes;
}

constexpr OwnedResource<events::Project, events::ProjectChanges> kProjects{
    .collection = "/v1/projects",
    .items = "projects",
    .id_prefix = base::kProjectIdPrefix,
    .noun = "project",
    .to_json = &to_json,
    .read_changes = &project_changes,
    .update = &actors::Service::update_project,
    .remove = &actors::Service::delete_project};

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
  service.create_project(std::move(command), answer_with_record(kProjects, std::move(respond),
                                                                context.request_id, 201));
}

}  // namespace

void add_project_routes(Router& router, actors::Service& service,
                        const store::ProjectsView& projects) {
  add_owned_resource_routes(router, kProjects, std::string(events::kScopeProjectsRead),
                            std::string(events::kScopeProjectsWrite),
                            bind_handler(create, std::ref(service)), service, projects);
}

}  // namespace vouch::http
