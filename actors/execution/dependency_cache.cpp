#include "actors/execution/dependency_cache.hpp"

#include <boost/json/serialize.hpp>
#include <fstream>
#include <unordered_map>
#include <vector>

#include "base/digest.hpp"
#include "base/ids.hpp"
#include "log/log.hpp"

namespace vouch::actors {
namespace {

struct DependencyCacheState {
  const RunnerSettings* settings = nullptr;
  process::ProcessHost* host = nullptr;
  // Installs under way, and who waits for each.
  std::unordered_map<std::string, std::vector<caf::typed_response_promise<InstallOutcome>>>
      installing;
  static inline const char* name = "vouch.dependency-cache";
};

using Self = dependency_cache_actor::stateful_pointer<DependencyCacheState>;

std::string package_json(const events::RunEnvironment& environment) {
  boost::json::object dependencies;
  for (const auto& [name, range] : environment.dependencies) dependencies[name] = range;
  return boost::json::serialize(boost::json::object{
      {"name", "vouch-run-dependencies"}, {"private", true}, {"dependencies", dependencies}});
}

// npm's own explanation: its "npm error" lines, else the end of its output.
std::string npm_reason(const process::ProcessExit& exit) {
  std::string reason;
  std::size_t start = 0;
  const auto& text = exit.stderr_tail;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    auto line = text.substr(start, end - start);
    if (line.starts_with("npm error") || line.starts_with("npm ERR!")) {
      if (line.find("A complete log of this run") == std::string::npos && reason.size() < 2000) {
        if (!reason.empty()) reason += "\n";
        reason += line;
      }
    }
    start = end + 1;
  }
  if (reason.empty()) reason = text.size() > 1000 ? text.substr(text.size() - 1000) : text;
  if (exit.killed) reason = "npm install took too long and was stopped. " + reason;
  return reason;
}

void install(Self self, const std::string& key, const events::RunEnvironment& environment) {
  const auto& settings = *self->state.settings;
  const auto final_folder = settings.dependency_root / key;
  const auto staging = settings.dependency_root / (key + ".installing-" + base::new_id(""));
  std::error_code ec;
  std::filesystem::create_directories(staging, ec);
  std::ofstream(staging / "package.json") << package_json(environment);
  process::ProcessSpec spec;
  spec.program = settings.npm;
  spec.cwd = staging;
  spec.args = {"install",    "--ignore-scripts",  "--no-audit",      "--no-fund",
               "--omit=dev", "--no-package-lock", "--loglevel=error"};
  const char* path = std::getenv("PATH");
  spec.env = {std::string("PATH=") + (path ? path : "/usr/local/bin:/usr/bin:/bin"),
              "HOME=" + (settings.dependency_root / ".npm-home").string(),
              "npm_config_cache=" + (settings.dependency_root / ".npm-cache").string(),
              "npm_config_update_notifier=false"};
  auto handle = caf::actor_cast<dependency_cache_actor>(self);
  auto child = process::ChildProcess::start(*self->state.host, spec);
  if (!child) {
    self->send(self, installed_atom_v, key,
               InstallOutcome{{}, events::RunError{"install_failed", child.error().message}});
    return;
  }
  auto process = *child;
  // npm prints little on stdout; its first line (or its end) leads to the wait for its exit.
  const auto timeout = settings.install_timeout;
  process->exchange(
      {}, true, timeout,
      [process, handle, key, staging, final_folder, timeout](std::optional<std::string>) {
        process->wait(timeout, [handle, key, staging, final_folder](process::ProcessExit exit) {
          InstallOutcome outcome;
          std::error_code ec;
          if (exit.code == 0 && !exit.killed) {
            // The folder appears whole or not at all.
            std::filesystem::rename(staging, final_folder, ec);
            if (ec && !std::filesystem::exists(final_folder / "node_modules")) {
              outcome.error = events::RunError{
                  "install_failed", "could not keep the installed dependencies: " + ec.message()};
            }
          } else {
            outcome.error = events::RunError{"install_failed", npm_reason(exit)};
          }
          std::filesystem::remove_all(staging, ec);
          if (!outcome.error) outcome.node_path = (final_folder / "node_modules").string();
          caf::anon_send(handle, installed_atom_v, key, std::move(outcome));
        });
      });
}

dependency_cache_actor::behavior_type dependency_cache(Self self, const RunnerSettings* settings,
                                                       process::ProcessHost* host) {
  self->state.settings = settings;
  self->state.host = host;
  return {
      [self](install_atom,
             const events::RunEnvironment& environment) -> caf::result<InstallOutcome> {
        if (environment.dependencies.empty()) return InstallOutcome{};
        const auto key = dependency_key(environment);
        const auto installed = self->state.settings->dependency_root / key / "node_modules";
        std::error_code ec;
        if (std::filesystem::is_directory(installed, ec)) {
          return InstallOutcome{installed.string(), {}};
        }
        auto promise = self->make_response_promise<InstallOutcome>();
        auto& waiting = self->state.installing[key];
        waiting.push_back(promise);
        if (waiting.size() == 1) install(self, key, environment);
        return promise;
      },
      [self](installed_atom, const std::string& key, InstallOutcome& outcome) {
        auto found = self->state.installing.find(key);
        if (found == self->state.installing.end()) return;
        if (outcome.error) log::warn("dependencies", outcome.error->detail);
        for (auto& promise : found->second) promise.deliver(outcome);
        self->state.installing.erase(found);
      },
  };
}

}  // namespace

std::string dependency_key(const events::RunEnvironment& environment) {
  auto sorted = environment.dependencies;
  std::sort(sorted.begin(), sorted.end());
  std::string canonical;
  for (const auto& [name, range] : sorted) {
    canonical += name;
    canonical.push_back('\0');
    canonical += range;
    canonical.push_back('\0');
  }
  return base::sha256_hex(canonical);
}

dependency_cache_actor spawn_dependency_cache(caf::actor_system& system,
                                              const RunnerSettings& settings,
                                              process::ProcessHost& host) {
  return system.spawn(dependency_cache, &settings, &host);
}

}  // namespace vouch::actors
