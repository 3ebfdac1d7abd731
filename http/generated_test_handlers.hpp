#pragma once

#include "actors/service.hpp"
#include "http/router.hpp"
#include "store/projects_view.hpp"
#include "store/runs_view.hpp"
#include "store/tests_view.hpp"

namespace vouch::http {

// POST /v1/tests/generate, GET /v1/tests/{testId}, GET /v1/tests?projectId=,
// POST /v1/tests/run, GET /v1/tests/results/{runId}. Generation and runs go
// to the actors through `service`; reads come from the read models.
// REQUIRES: all of them outlive the router.
void add_test_routes(Router& router, actors::Service& service, const store::ProjectsView& projects,
                     const store::TestsView& tests, const store::RunsView& runs);

}  // namespace vouch::http
