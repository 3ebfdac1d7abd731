#include "app/runner_options.hpp"

#include <boost/program_options.hpp>

namespace vouch::app {

namespace po = boost::program_options;

RunnerOptions RunnerCommandLine::parsed(bool allow_unsandboxed) const {
  RunnerOptions out = options;
  out.runner_dir = runner_dir;
  out.extra_nodes.assign(extra_nodes.begin(), extra_nodes.end());
  out.allow_unsandboxed = allow_unsandboxed;
  return out;
}

void add_runner_options(po::options_description& options, RunnerCommandLine& runner) {
  auto& runs = runner.options;
  options.add_options()("runner", po::value(&runner.runner_dir),
                        "the runner/ folder (Node.js side) with its node_modules")(
      "node", po::value(&runner.extra_nodes)->composing(),
      "another Node.js binary runs may ask for by major version (repeatable)")(
      "generators", po::value(&runs.generator_slots), "test generations at once (default 2)")(
      "executors", po::value(&runs.executor_slots), "test runs at once (default 2)")(
      "warm-runners", po::value(&runs.warm_runners),
      "runners kept started and ready for the next runs (default 2)")(
      "run-wall-ms", po::value(&runs.run_limits.wall_ms),
      "wall time of a test run (default 60000)")(
      "run-cpu-seconds", po::value(&runs.run_limits.cpu_seconds),
      "CPU time of each process of a test run (default 30)")(
      "run-memory-mb", po::value(&runs.run_limits.memory_mb),
      "private memory of each process of a test run (default 1024)")(
      "run-max-procs", po::value(&runs.run_limits.max_procs),
      "processes and threads of a test run (default 128)")(
      "run-max-file-mb", po::value(&runs.run_limits.max_file_mb),
      "largest file a test run may write (default 64)")(
      "allow-unsandboxed",
      "run tests even where tested code cannot be isolated (no bubblewrap "
      "or unshare)");
}

void add_worker_tls_options(po::options_description& options, actors::NetworkOptions& network) {
  options.add_options()(
      "workers-ca", po::value<std::string>()->notifier([&network](const std::string& file) {
        network.ca = file;
      }),
      "PEM CA that signed the other side's certificate (mutual TLS with workers)")(
      "workers-cert", po::value<std::string>()->notifier([&network](const std::string& file) {
        network.cert = file;
      }),
      "this side's PEM certificate (chain)")(
      "workers-key", po::value<std::string>()->notifier([&network](const std::string& file) {
        network.key = file;
      }),
      "this side's PEM private key");
}

}  // namespace vouch::app
