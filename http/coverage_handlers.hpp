#pragma once

#include "http/router.hpp"
#include "store/coverage_reports.hpp"
#include "store/runs_view.hpp"

namespace vouch::http {

// A completed run's coverage report (docs/openapi.json):
//   GET /v1/tests/results/{runId}/coverage            lcov and istanbul JSON in one document
//   GET /v1/tests/results/{runId}/coverage/lcov.info  the lcov file
//   GET /v1/tests/results/{runId}/coverage/html/{path} the HTML report's pages
// The run must be the caller's; a run without a report (its tests never ran,
// or the report outlived its retention) answers 404.
// REQUIRES: both outlive the router.
void add_coverage_routes(Router& router, const store::CoverageReports& reports,
                         const store::RunsView& runs);

}  // namespace vouch::http
