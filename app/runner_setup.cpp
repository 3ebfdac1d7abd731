#include "app/runner_setup.hpp"

#include <unistd.h>

#include <boost/json/parse.hpp>
#include <cstdlib>
#include <future>
#include <iostream>

#include "base/clock.hpp"
#include "log/log.hpp"
#include "process/child_process.hpp"
#include "runner_cache/runner_code_cache.hpp"
#include "runner_cache/transform_cache.hpp"

namespace vouch::app {
namespace {

// Runs a short command to its end and returns its first line of stdout.
std::optional<std::string> first_line(process::ProcessHost& host, process::ProcessSpec spec) {
  auto child = process::ChildProcess::start(host, std::move(spec));
  if (!child) return std::nullopt;
  std::promise<std::optional<std::string>> promise;
  auto future = promise.get_future();
  auto process = *child;
  process->exchange(
      {}, true, std::chrono::seconds(20), [&promise, process](std::optional<std::string> line) {
        process->wait(std::chrono::seconds(5),
                      [&promise, line](process::ProcessExit) { promise.set_value(line); });
      });
  return future.get();
}

std::vector<std::string> base_env() {
  const char* path = std::getenv("PATH");
  return {std::string("PATH=") + (path ? path : "/usr/local/bin:/usr/bin:/bin")};
}

// "v20.20.2" → "20".
std::optional<std::string> major_of(const std::string& version) {
  if (version.size() < 2 || version[0] != 'v') return std::nullopt;
  const auto dot = version.find('.');
  return version.substr(1, dot == std::string::npos ? std::string::npos : dot - 1);
}

}  // namespace

std::optional<std::filesystem::path> on_path(std::string_view program) {
  const char* path = std::getenv("PATH");
  std::string_view folders = path ? path : "/usr/local/bin:/usr/bin:/bin";
  while (!folders.empty()) {
    const auto colon = folders.find(':');
    const auto folder = folders.substr(0, colon);
    if (!folder.empty()) {
      auto candidate = std::filesystem::path(folder) / program;
      std::error_code ec;
      if (std::filesystem::is_regular_file(candidate, ec) &&
          ::access(candidate.c_str(), X_OK) == 0) {
        return std::filesystem::canonical(candidate, ec);
      }
    }
    if (colon == std::string_view::npos) break;
    folders.remove_prefix(colon + 1);
  }
  return std::nullopt;
}

base::Result<actors::RunnerSettings> prepare_runner(const std::filesystem::path& data,
                                                    const RunnerOptions& options) {
  actors::RunnerSettings settings;
  std::error_code ec;
  settings.runner_dir = std::filesystem::canonical(options.runner_dir, ec);
  if (ec || !std::filesystem::exists(settings.runner_dir / "bin" / "run.js") ||
      !std::filesystem::exists(settings.runner_dir / "node_modules")) {
    return base::Error::invalid("no installed runner at " + options.runner_dir.string() +
                                " (run scripts/setup.sh, or pass --runner DIR)");
  }
  settings.sandbox =
      std::filesystem::canonical("/proc/self/exe", ec).parent_path() / "vouch-sandbox";
  if (ec || ::access(settings.sandbox.c_str(), X_OK) != 0) {
    return base::Error::invalid("no vouch-sandbox beside vouchd at " + settings.sandbox.string() +
                                " (build both with scripts/setup.sh)");
  }
  const auto node = on_path("node");
  if (!node) return base::Error::invalid("Node.js (node) is not on PATH");
  settings.node = *node;
  settings.npm = on_path("npm").value_or("npm");

  const auto root = std::filesystem::absolute(data).lexically_normal();
  settings.work_root = root / "work";
  settings.dependency_root = root / "deps";
  settings.hidden = {root};
  // Work folders of a previous process are leftovers: nothing resumes them.
  std::filesystem::remove_all(settings.work_root, ec);
  std::filesystem::create_directories(settings.work_root, ec);
  std::filesystem::create_directories(settings.dependency_root, ec);
  if (ec) return base::Error::internal("cannot create " + settings.work_root.string());

  // 0 slots: a server whose workers do that work.
  settings.generator_slots = options.generator_slots;
  settings.executor_slots = options.executor_slots;
  settings.warm_runners = options.executor_slots == 0 ? 0 : options.warm_runners;
  settings.generation_queue_wait = std::chrono::milliseconds(options.generation_queue_ms);
  settings.run_limits = options.run_limits;

  process::ProcessHost host;
  std::vector<std::filesystem::path> nodes{settings.node};
  nodes.insert(nodes.end(), options.extra_nodes.begin(), options.extra_nodes.end());
  for (const auto& binary : nodes) {
    auto version = first_line(host, {binary, {"--version"}, base_env(), root});
    auto major = version ? major_of(*version) : std::nullopt;
    if (!major) {
      if (binary == settings.node) return base::Error::invalid("cannot run " + binary.string());
      log::warn("runner", "ignored --node " + binary.string() + ": it does not run");
      continue;
    }
    if (binary == settings.node) settings.default_node_major = *major;
    settings.node_versions.emplace(*major, binary);
    log::info("runner", "Node.js " + *version + " at " + binary.string());
  }

  auto probe = first_line(host, {settings.sandbox, {"--probe"}, base_env(), root});
  boost::system::error_code json_error;
  auto answer = probe ? boost::json::parse(*probe, json_error) : boost::json::value();
  if (!probe || json_error || !answer.is_object() || !answer.get_object().contains("isolation")) {
    return base::Error::invalid("the sandbox does not work here: " + probe.value_or("no answer"));
  }
  settings.isolation = answer.get_object().at("isolation").as_string().c_str();
  if (settings.isolation == "none" && !options.allow_unsandboxed) {
    return base::Error::invalid(
        "the sandbox has no isolation on this machine (neither bubblewrap nor unshare works), so "
        "tested code would see the server's files, processes and network: install bubblewrap, "
        "or pass --allow-unsandboxed to serve without isolation knowingly");
  }
  if (settings.isolation == "bubblewrap") {
    settings.transform_cache =
        std::make_shared<runner_cache::TransformCache>(root / "transform-cache");
  }
  if (settings.isolation != "none") {
    settings.code_cache = std::make_shared<runner_cache::RunnerCodeCache>(root / "code-cache");
  }
  const bool network = answer.get_object().if_contains("network") &&
                       answer.get_object().at("network").is_bool() &&
                       answer.get_object().at("network").get_bool();
  log::write(network ? log::Level::kWarn : log::Level::kInfo, "runner",
             "sandbox isolation: " + settings.isolation +
                 (network ? " (tested code CAN reach the network: no bubblewrap or unshare here)"
                          : " (no network for tested code)"));
  return settings;
}

}  // namespace vouch::app
