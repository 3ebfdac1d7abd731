#include "http/project_json.hpp"

#include "events/resource_json.hpp"

namespace vouch::http {

boost::json::object to_json(const events::Project& project) {
  return events::project_resource(project);
}

}  // namespace vouch::http
