#pragma once

#include "actors/service.hpp"
#include "http/router.hpp"
#include "store/projects_view.hpp"

namespace vouch::http {

// POST/GET /v1/projects, GET/PUT/DELETE /v1/projects/{id}. Writes go to the
// project actors through `service`; reads come from the read model.
// REQUIRES: both outlive the router.
void add_project_routes(Router& router, actors::Service& service,
                        const store::ProjectsView& projects);

}  // namespace vouch::http
