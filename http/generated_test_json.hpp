#pragma once

#include <boost/json/object.hpp>

#include "actors/messages.hpp"
#include "events/generated_test.hpp"
#include "events/run.hpp"

namespace vouch::http {

// The API's generated test:
// {testId, projectId, status, framework, threshold, files, summary, lastRunId, created, updated},
// with `progress` {phase, filesDone, filesTotal, testsKept} while it is generating (from
// `progress`, or queued with zeros when this process does not know it) and `error`
// {code, detail} when its asynchronous generation failed.
boost::json::object to_json(const events::GeneratedTest& test,
                            const actors::GenerationProgress* progress = nullptr);

// The API's run (docs/openapi.json, Run): {runId, testId, projectId, status, results,
// outcome, duration, error, failures, environment, created, completed};
// results, outcome, duration and completed are null while running.
boost::json::object to_json(const events::TestRun& run);

}  // namespace vouch::http
