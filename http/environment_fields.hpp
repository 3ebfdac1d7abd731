#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "actors/execution/runner_settings.hpp"
#include "events/source_file.hpp"
#include "http/json_body.hpp"

namespace vouch::http {

// environment.nodeVersion and environment.dependencies, checked alike for
// generations and runs. A field the body leaves out stays nullopt.
struct EnvironmentFields {
  std::optional<std::string> node_major;
  std::optional<std::vector<std::pair<std::string, std::string>>> dependencies;
};

EnvironmentFields read_environment(JsonBody& body, const actors::RunnerSettings& runner);

// The dependencies of the package.json nearest the root among `files` (the
// package's own), read as npm reads them (events/package_dependencies.hpp) and
// never refused: an entry environment.dependencies would not accept is left
// out, and past kMaxDependencies the rest. nullopt when none is left.
std::optional<std::vector<std::pair<std::string, std::string>>> package_json_dependencies(
    const std::vector<events::SourceFile>& files);

}  // namespace vouch::http
