#pragma once

#include <boost/json/object.hpp>
#include <string>
#include <utility>
#include <vector>

// What a generation or a run executes in (docs/openapi.json): a Node.js major and the
// npm dependencies installed for it. A generated test keeps the environment
// it was generated in; its runs use it unless they name their own.
namespace vouch::events {

struct RunEnvironment {
  std::string node_version;                                       // the major, e.g. "20"
  std::vector<std::pair<std::string, std::string>> dependencies;  // name → version range
};

// {"nodeVersion": "20", "dependencies": {"name": "range", …}}
boost::json::object environment_to_json(const RunEnvironment& environment);

// The inverse of environment_to_json. REQUIRES: nothing; throws
// json_access::CorruptRecord when `value` is not such an object.
RunEnvironment environment_from_json(const boost::json::value& value);

}  // namespace vouch::events
