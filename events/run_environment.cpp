#include "events/run_environment.hpp"

#include "events/json_access.hpp"

namespace vouch::events {

namespace ja = json_access;

boost::json::object environment_to_json(const RunEnvironment& environment) {
  boost::json::object dependencies;
  for (const auto& [name, range] : environment.dependencies) dependencies[name] = range;
  return {{"nodeVersion", environment.node_version}, {"dependencies", std::move(dependencies)}};
}

RunEnvironment environment_from_json(const boost::json::value& value) {
  const auto& environment = ja::as_object(value, "environment");
  RunEnvironment out{ja::string_at(environment, "nodeVersion"), {}};
  const auto* dependencies = environment.if_contains("dependencies");
  if (!dependencies) throw ja::CorruptRecord{"missing dependencies"};
  for (const auto& [name, range] : ja::as_object(*dependencies, "dependencies")) {
    if (!range.is_string()) throw ja::CorruptRecord{"a dependency range is not a string"};
    out.dependencies.emplace_back(name, range.get_string());
  }
  return out;
}

}  // namespace vouch::events
