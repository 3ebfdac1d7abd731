#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <cerrno>
#include <iostream>

#include "actors/cluster/worker_node.hpp"
#include "app/command_line.hpp"
#include "app/commands.hpp"
#include "app/runner_options.hpp"
#include "app/runner_setup.hpp"
#include "log/log.hpp"

namespace vouch::app {

namespace po = boost::program_options;

namespace {

int stop_pipe[2] = {-1, -1};

extern "C" void on_stop_signal(int) {
  const char byte = 1;
  [[maybe_unused]] const auto written = ::write(stop_pipe[1], &byte, 1);
}

// Waits for SIGTERM or SIGINT. A handler and a pipe rather than a blocked
// mask: a mask would be inherited by the runners this process starts,
// handlers are reset when they exec.
void wait_for_stop_signal() {
  char byte = 0;
  while (::read(stop_pipe[0], &byte, 1) < 0 && errno == EINTR) {
  }
}

}  // namespace

int worker(const std::vector<std::string>& args) {
  std::string connect;
  std::string data = "./vouch-worker-data";
  char hostname[256] = {};
  ::gethostname(hostname, sizeof hostname - 1);
  std::string name = std::string(hostname) + "/" + std::to_string(::getpid());
  RunnerCommandLine runner;
  actors::NetworkOptions network;
  po::options_description options("vouchd worker");
  options.add_options()("connect", po::value(&connect)->required(),
                        "HOST:PORT of the server's --workers-listen")(
      "data", po::value(&data),
      "folder for this worker's work folders and dependency installs (created when missing)")(
      "name", po::value(&name), "how the server calls this worker (default HOST/PID)");
  add_runner_options(options, runner);
  add_worker_tls_options(options, network);
  po::variables_map values;
  if (!parse_command_line(args, options, values)) return 2;
  auto server = actors::parse_host_port(connect);
  auto usable = server ? actors::check_network(network, server->first) : server.error();
  if (!usable) {
    std::cerr << "vouchd: --connect: " << usable.error().message << "\n";
    return 2;
  }
  const auto runner_options = runner.parsed(values.count("allow-unsandboxed") != 0);
  if (runner_options.generator_slots == 0 && runner_options.executor_slots == 0) {
    std::cerr << "vouchd: a worker needs --generators or --executors above 0\n";
    return 2;
  }
  network.enabled = true;

  if (::pipe2(stop_pipe, O_CLOEXEC) != 0) {
    log::error("worker", "cannot create a pipe");
    return 1;
  }
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGTERM, &action, nullptr);
  ::sigaction(SIGINT, &action, nullptr);

  auto settings = prepare_runner(data, runner_options);
  if (!settings) {
    log::error("worker", settings.error().message);
    return 1;
  }
  {
    actors::WorkerNode node(
        std::move(settings).value(),
        actors::WorkerNodeOptions{server->first, server->second, network, name});
    std::cout << "worker connecting to " << connect << std::endl;
    log::info("worker", "worker " + name + " connecting to " + connect +
                            (network.tls() ? " (mutual TLS)" : " (loopback, no TLS)"));
    wait_for_stop_signal();
    log::info("worker", "stopping: its jobs in flight end and the server retries them elsewhere");
  }
  log::info("worker", "stopped");
  return 0;
}

}  // namespace vouch::app
