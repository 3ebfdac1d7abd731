#include "http/environment_fields.hpp"

#include <algorithm>
#include <regex>

#include "events/dependency_spec.hpp"

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
    JsonBody& body, const std::vector<events::SourceFile>& files) {
  std::optional<std::size_t> chosen;
  auto depth = [](const std::string& path) { return std::count(path.begin(), path.end(), '/'); };
  for (std::size_t i = 0; i < files.size(); ++i) {
    const auto& path = files[i].path;
    if (path != "package.json" && !path.ends_with("/package.json")) continue;
    if (!chosen || depth(path) < depth(files[*chosen].path)) chosen = i;
  }
  if (!chosen) return std::nullopt;
  const auto field = "files[" + std::to_string(*chosen) + "].content";
  auto package = JsonBody::parse(files[*chosen].content);
  if (!package) {
    body.reject(field,
                files[*chosen].path + " is not a JSON object, so its dependencies cannot be read");
    return std::nullopt;
  }
  auto dependencies = package->string_map("dependencies");
  for (const auto& error : package->errors()) {
    body.reject(field, files[*chosen].path + ": " + error.field + " " + error.message);
  }
  if (!dependencies || dependencies->empty()) return std::nullopt;
  if (dependencies->size() > kMaxDependencies) {
    body.reject(field, files[*chosen].path + ": dependencies must name at most " +
                           std::to_string(kMaxDependencies) + " packages");
  }
  for (const auto& [name, range] : *dependencies) {
    auto problem = events::invalid_package_name(name);
    if (!problem) problem = events::invalid_dependency_spec(range);
    if (problem)
      body.reject(field, files[*chosen].path + ": dependencies." + name + " " + *problem);
  }
  return dependencies;
}
}  // namespace vouch::http
