#pragma once

#include <boost/json/object.hpp>

#include "events/project.hpp"

namespace vouch::http {

// The API's project record (docs/openapi.json, Project):
// {id, name, repository, config: {framework, coverage: {threshold}}, created, updated}.
boost::json::object to_json(const events::Project& project);

}  // namespace vouch::http
