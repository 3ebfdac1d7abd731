#pragma once

#include <boost/json/object.hpp>

#include "events/generated_test.hpp"
#include "events/run.hpp"

namespace vouch::http {

// The API's generated test (docs/openapi.json, GeneratedTest):
// {testId, projectId, status, framework, threshold, files, summary, lastRunId, created, updated}.
boost::json::object to_json(const events::GeneratedTest& test);

// The API's run (docs/openapi.json, Run): {runId, testId, projectId, status, results,
// outcome, duration, error, failures, environment, created, completed};
// results, outcome, duration and completed are null while running.
boost::json::object to_json(const events::TestRun& run);

}  // namespace vouch::http
