#pragma once

#include <boost/program_options/options_description.hpp>
#include <string>
#include <vector>

#include "actors/cluster/network.hpp"
#include "app/runner_setup.hpp"

// The command-line options of what generates and runs tests, shared by
// `vouchd serve` and `vouchd worker`.
namespace vouch::app {

struct RunnerCommandLine {
  RunnerOptions options;
  std::string runner_dir = VOUCH_RUNNER_DIR;
  std::vector<std::string> extra_nodes;

  // The options as parsed: runner_dir and extra_nodes moved into `options`.
  RunnerOptions parsed(bool allow_unsandboxed) const;
};

// --runner, --node, --generators, --executors, --warm-runners and the
// limits of a test run.
void add_runner_options(boost::program_options::options_description& options,
                        RunnerCommandLine& runner);

// --workers-ca, --workers-cert, --workers-key (mutual TLS between a server
// and its workers).
void add_worker_tls_options(boost::program_options::options_description& options,
                            actors::NetworkOptions& network);

}  // namespace vouch::app
