#include "http/environment_fields.hpp"

#include <algorithm>
#include <regex>

#include "events/dependency_spec.hpp"
#include "events/package_dependencies.hpp"

namespace vouch::http {
namespace {

constexpr std::size_t kMaxDependencies = 50;

// "20", "v20", "20.x" or a full version "20.11.1": the major it names.
std::optional<std::string> node_major_of(const std::string& version) {
  static const std::regex kVersion(R"(^v?(\d{1,3})(\.x|\.\d+\.\d+)?$)");
  std::smatch match;
  if (!std::regex_match(version, match, kVersion)) return std::nullopt;
  return match[1].str();
}

std::string available_nodes(const actors::RunnerSettings& runner) {
  std::string names;
  for (const auto& [major, binary] : runner.node_versions) {
    names += (names.empty() ? "" : ", ") + major;
  }
  return names.empty() ? "none" : names;
}

void check_dependency(JsonBody& body, const std::string& name, const std::string& spec) {
  const auto field = "environment.dependencies." + name;
  if (auto problem = events::invalid_package_name(name)) {
    body.reject(field, *problem);
  } else if (auto problem = events::invalid_dependency_spec(spec)) {
    body.reject(field, *problem);
  }
}

}  // namespace

EnvironmentFields read_environment(JsonBody& body, const actors::RunnerSettings& runner) {
  EnvironmentFields fields;
  if (auto node_version = body.string("environment.nodeVersion")) {
    auto major = node_major_of(*node_version);
    if (!major || runner.node_versions.count(*major) == 0) {
      body.reject(
          "environment.nodeVersion",
          "Node.js " + *node_version + " is not installed; available: " + available_nodes(runner));
    } else {
      fields.node_major = std::move(*major);
    }
  }
  if (auto dependencies = body.string_map("environment.dependencies")) {
    if (dependencies->size() > kMaxDependencies) {
      body.reject("environment.dependencies",
                  "must name at most " + std::to_string(kMaxDependencies) + " packages");
    }
    for (const auto& [name, range] : *dependencies) check_dependency(body, name, range);
    fields.dependencies = std::move(*dependencies);
  }
  return fields;
}

std::optional<std::vector<std::pair<std::string, std::string>>> package_json_dependencies(
    const std::vector<events::SourceFile>& files) {
  std::optional<std::size_t> chosen;
  auto depth = [](const std::string& path) { return std::count(path.begin(), path.end(), '/'); };
  for (std::size_t i = 0; i < files.size(); ++i) {
    const auto& path = files[i].path;
    if (path != "package.json" && !path.ends_with("/package.json")) continue;
    if (!chosen || depth(path) < depth(files[*chosen].path)) chosen = i;
  }
  if (!chosen) return std::nullopt;
  // Read as npm reads it, never refused: legacy shapes are normalized and an
  // entry that cannot be installed here (a git URL, a local path, a name npm
  // would not publish) is left out, so the modules that require it are
  // reported as missing_module by the generator instead.
  auto dependencies = events::normalized_dependencies(files[*chosen].content);
  std::erase_if(dependencies, [](const auto& entry) {
    return events::invalid_package_name(entry.first) ||
           events::invalid_dependency_spec(entry.second);
  });
  if (dependencies.size() > kMaxDependencies) dependencies.resize(kMaxDependencies);
  if (dependencies.empty()) return std::nullopt;
  return dependencies;
}
}  // namespace vouch::http
