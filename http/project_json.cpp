#include "http/project_json.hpp"

#include "events/clock.hpp"
#include "http/reply.hpp"

namespace vouch::http {

boost::json::object to_json(const events::Project& project) {
  return {{"id", project.id},
          {"name", project.name},
          {"repository", project.repository},
          {"config",
           {{"framework", project.framework},
            {"coverage", {{"threshold", json_number(project.threshold)}}}}},
          {"created", events::format_timestamp(project.created)},
          {"updated", events::format_timestamp(project.updated)}};
}

}  // namespace vouch::http
