#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <cmath>
#include <cstdint>

#include "events/project.hpp"
#include "events/run.hpp"

// The API's JSON shapes of domain values, written in one place: the HTTP
// resources (http/) and the public events (public_types.hpp) both use them,
// so an event's data has the same field names and shapes as the resource.
namespace vouch::events {

// A percentage or other number as JSON: integral values print as integers
// ("80", not Boost.JSON's shortest double form "8E1"). The range is checked
// before the cast (casting a double out of int64's range is undefined).
inline boost::json::value json_number(double value) {
  if (std::isfinite(value) && std::abs(value) < 1e15 && std::trunc(value) == value) {
    return static_cast<std::int64_t>(value);
  }
  return value;
}

// The project record (docs/openapi.json, Project):
// {id, name, repository, config: {framework, coverage: {threshold}}, created, updated}.
boost::json::object project_resource(const Project& project);

// {statements, branches, functions, lines}, percentages.
boost::json::object coverage_resource(const Coverage& coverage);

// {total, passed, failed, coverage}.
boost::json::object results_resource(const RunResults& results);

// {nodeVersion, dependencies: {name: range}}.
boost::json::object environment_resource(const RunEnvironment& environment);

// An imported snapshot of project `project_id`: {projectId, snapshotId,
// files, bytes, source, created}, and for a repository {ref (null: the
// remote's HEAD), commit}.
boost::json::object snapshot_resource(const std::string& project_id,
                                      const SnapshotSummary& snapshot, base::Millis at);

// {code, detail}, or null.
boost::json::value run_error_resource(const std::optional<RunError>& error);

}  // namespace vouch::events
