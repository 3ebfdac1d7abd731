#include "app/commands.hpp"

#include <boost/json/serialize.hpp>
#include <boost/program_options.hpp>
#include <cstdlib>
#include <iostream>

#include "app/admin_socket.hpp"
#include "app/command_line.hpp"
#include "app/data_folder.hpp"
#include "app/import_options.hpp"
#include "app/memory_budget.hpp"
#include "app/open_files.hpp"
#include "app/runner_options.hpp"
#include "app/runner_setup.hpp"
#include "app/runtime.hpp"
#include "app/secrets_command.hpp"
#include "app/webhook_options.hpp"
#include "base/clock.hpp"
#include "events/access.hpp"
#include "events/public_types.hpp"
#include "events/secret_redaction.hpp"
#include "http/api.hpp"
#include "http/import_handlers.hpp"
#include "http/key_handlers.hpp"
#include "http/server.hpp"
#include "log/log.hpp"
#include "store/record_codec.hpp"

namespace vouch::app {
namespace {

namespace po = boost::program_options;

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto end = text.find(separator, start);
    auto part = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!part.empty()) out.push_back(std::move(part));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

// On the first start of an empty data folder, the operator gets an admin key:
// VOUCH_BOOTSTRAP_KEY when set, or a random one printed once.
bool bootstrap(Runtime& runtime) {
  if (runtime.log->last_position() != 0) return true;
  const char* given = std::getenv("VOUCH_BOOTSTRAP_KEY");
  actors::IssueKey command;
  command.account = "admin";
  command.plan = events::Plan::kEnterprise;
  command.scopes = events::known_scopes();
  command.name = "bootstrap";
  if (given && *given) command.secret = std::string(given);
  command.at = base::now_millis();
  auto issued = issue_key_and_wait(*runtime.service, std::move(command));
  if (!issued) {
    log::error("vouchd", "cannot create the bootstrap key: " + issued.error().message);
    return false;
  }
  if (given && *given) {
    log::info("vouchd", "created the admin key from VOUCH_BOOTSTRAP_KEY (account admin)");
  } else {
    std::cout << "admin key: " << issued->secret << std::endl;
    log::info("vouchd", "created an admin key (account admin); it is printed once on stdout");
  }
  return true;
}

}  // namespace

int serve(const std::vector<std::string>& args) {
  std::string data = "./vouch-data";
  std::string listen = "127.0.0.1:8080";
  RunnerCommandLine runner;
  http::ServerOptions server_options;
  Runtime::Options runtime_options;
  std::string workers_listen;
  std::size_t memory_mb = kDefaultMemoryMb;
  auto& network = runtime_options.service.network;
  po::options_description options("vouchd serve");
  options.add_options()("data", po::value(&data), "data folder (created when missing)")(
      "listen", po::value(&listen), "HOST:PORT to listen on; port 0 picks a free one")(
      "no-rate-limits", "serve without the plans' rate limits (benchmarks, trusted deployments)")(
      "drain-timeout-s", po::value<unsigned>()->notifier([&](unsigned seconds) {
        server_options.drain_timeout = std::chrono::seconds(seconds);
      }),
      "on SIGTERM, how long in-flight requests may finish (default 10)")(
      "coverage-retention-days", po::value<unsigned>()->notifier([&](unsigned days) {
        runtime_options.coverage_retention = std::chrono::hours(24 * std::max(1u, days));
      }),
      "how long runs' coverage reports are kept (default 30)")(
      "max-connections", po::value(&server_options.max_connections),
      "open client connections at most (default: three quarters of the open-file limit)")(
      "max-connections-per-address", po::value(&server_options.max_connections_per_address),
      "open connections from one client address at most (default: half of max-connections)")(
      "generation-queue-ms", po::value(&runner.options.generation_queue_ms),
      "how long a generation waits for a free generator before a 503 (default 10000)")(
      "workers-listen", po::value(&workers_listen),
      "HOST:PORT where `vouchd worker` processes join; port 0 picks one")(
      "memory-mb", po::value(&memory_mb),
      "memory budget in MiB: RocksDB's caches, read memos and live project actors (default 512)");
  add_runner_options(options, runner);
  add_worker_tls_options(options, network);
  WebhookOptions webhook_options;
  add_webhook_options(options, webhook_options);
  ImportOptions import_options;
  add_import_options(options, import_options);
  std::string given_key_file;
  add_secrets_key_option(options, given_key_file);
  po::variables_map values;
  if (!parse_command_line(args, options, values)) return 2;
  auto key_file = secrets_key_file(given_key_file);
  if (!key_file) {
    std::cerr << "vouchd: " << key_file.error().message << "\n";
    return 2;
  }
  runtime_options.secrets_key_file = *key_file;
  auto webhooks = webhook_settings(webhook_options, values);
  if (!webhooks) {
    std::cerr << "vouchd: " << webhooks.error().message << "\n";
    return 2;
  }
  const auto listen_address = actors::parse_host_port(listen);
  if (!listen_address) {
    std::cerr << "vouchd: --listen: " << listen_address.error().message << "\n";
    return 2;
  }
  auto memory = memory_budget(memory_mb);
  if (!memory) {
    std::cerr << "vouchd: " << memory.error().message << "\n";
    return 2;
  }
  runtime_options.memory = *memory;

  const auto runner_options = runner.parsed(values.count("allow-unsandboxed") != 0);
  if (!workers_listen.empty()) {
    auto parsed = actors::parse_host_port(workers_listen);
    auto usable = parsed ? actors::check_network(network, parsed->first) : parsed.error();
    if (!usable) {
      std::cerr << "vouchd: --workers-listen: " << usable.error().message << "\n";
      return 2;
    }
    runtime_options.workers = actors::Service::WorkerListener{parsed->first, parsed->second};
    network.enabled = true;
  } else if (runner_options.generator_slots == 0 || runner_options.executor_slots == 0) {
    std::cerr << "vouchd: --generators 0 or --executors 0 need --workers-listen (workers do "
                 "that work)\n";
    return 2;
  }
  auto imports = import_settings(import_options, values);
  if (!imports) {
    std::cerr << "vouchd: " << imports.error().message << "\n";
    return 2;
  }
  // An upload may be as large as the snapshot it expands to.
  server_options.large_body = http::is_import_upload;
  server_options.large_body_limit = imports->limits.max_bytes;
  runtime_options.imports = std::move(imports).value();
  runtime_options.webhooks = std::move(webhooks).value();

  log::info("vouchd", raise_open_file_limit());
  auto runtime = Runtime::open(
      data, [&] { return prepare_runner(data, runner_options); }, runtime_options);
  if (!runtime) {
    log::error("vouchd", runtime.error().message);
    return 1;
  }
  if (!bootstrap(**runtime)) return 1;
  auto admin_socket = AdminSocket::start(*(*runtime)->database);
  if (!admin_socket) {
    log::error("vouchd", admin_socket.error().message);
    return 1;
  }
  if (const auto port = (*runtime)->service->workers_port()) {
    const auto where = runtime_options.workers->host + ":" + std::to_string(*port);
    std::cout << "workers listening on " << where << std::endl;
    log::info("vouchd", "workers join on " + where +
                            (network.tls() ? " (mutual TLS)" : " (loopback, no TLS)"));
  }

  http::Api::Options api_options;
  api_options.rate_limits = values.count("no-rate-limits") == 0;
  api_options.memory_budget_bytes = runtime_options.memory.total_bytes;
  if (!api_options.rate_limits) log::warn("vouchd", "rate limits are off (--no-rate-limits)");
  http::Api api(*(*runtime)->service, *(*runtime)->models, *(*runtime)->database, *(*runtime)->log,
                api_options);
  server_options.host = listen_address->first;
  server_options.port = listen_address->second;
  server_options.on_drain = [&service = *(*runtime)->service] { service.release_run_waits(); };
  http::Server server(server_options, [&api](http::Request request, http::Respond respond) {
    api.handle(std::move(request), std::move(respond));
  });
  if (auto status = server.listen(); !status) {
    log::error("vouchd", status.error().message);
    return 1;
  }
  const std::string address = server_options.host + ":" + std::to_string(server.port());
  std::cout << "listening on " << address << std::endl;
  std::cout << "console: http://" << address << "/console/" << std::endl;
  log::info("vouchd", "serving " + data + " on " + address);
  server.run();
  // The server has stopped accepting and drained. The runtime stops next
  // (Runtime::stop(): the service, then the store), while the Api and the
  // server they answer through still exist: a request still in flight (past
  // the drain) is answered into the stopped server, never into freed memory.
  (*runtime)->stop();
  log::info("vouchd", "stopped: drained in-flight requests");
  return 0;
}

int create_key(const std::vector<std::string>& args) {
  std::string data, account, plan = "free", scopes, name;
  po::options_description options("vouchd keys create");
  options.add_options()("data", po::value(&data)->required(), "data folder")(
      "account", po::value(&account)->required(), "account name (created when new)")(
      "plan", po::value(&plan), "free, pro or enterprise")(
      "scopes", po::value(&scopes)->required(), "comma-separated scopes")("name", po::value(&name),
                                                                          "a label for the key");
  po::variables_map values;
  if (!parse_command_line(args, options, values)) return 2;
  const auto parsed_plan = events::parse_plan(plan);
  if (!parsed_plan) {
    std::cerr << "vouchd: --plan must be free, pro or enterprise\n";
    return 2;
  }
  auto runtime = Runtime::open(data, [] {
    actors::RunnerSettings no_runs;  // a tool: no runner is started
    no_runs.warm_runners = 0;
    return base::Result<actors::RunnerSettings>(std::move(no_runs));
  });
  if (!runtime) {
    std::cerr << "vouchd: " << runtime.error().message << "\n";
    return 1;
  }
  auto issued = issue_key_and_wait(*(*runtime)->service,
                                   actors::IssueKey{account, *parsed_plan, split(scopes, ','), name,
                                                    std::nullopt, base::now_millis()});
  if (!issued) {
    std::cerr << "vouchd: " << issued.error().message << "\n";
    for (const auto& field : issued.error().fields) {
      std::cerr << "  " << field.field << ": " << field.message << "\n";
    }
    return 1;
  }
  std::cout << boost::json::serialize(http::to_json(*issued)) << std::endl;
  return 0;
}

int replay(const std::vector<std::string>& args) {
  std::string data;
  std::uint64_t from = 1;
  po::options_description options("vouchd replay");
  options.add_options()("data", po::value(&data)->required(), "data folder")(
      "from", po::value(&from), "first log position to print")(
      "verify", "rebuild every read model from the log and compare with the stored ones")(
      "public", "print only public events, in their published form (for auditors)")(
      "account", po::value<std::string>(), "with --public: only this account's events");
  po::variables_map values;
  if (!parse_command_line(args, options, values)) return 2;
  auto database = open_data_folder(data);
  if (!database) return 1;
  auto opened = store::EventLog::open(*database);
  if (!opened) {
    std::cerr << "vouchd: " << opened.error().message << "\n";
    return 1;
  }
  auto& log = **opened;
  const bool print_public = values.count("public") != 0;
  std::optional<std::string> account;
  if (values.count("account")) account = values["account"].as<std::string>();
  for (std::uint64_t position = std::max<std::uint64_t>(from, 1);;) {
    auto page = log.read_all(position, 1024);
    if (!page) {
      std::cerr << "vouchd: " << page.error().message << "\n";
      return 1;
    }
    if (page->empty()) break;
    for (const auto& record : *page) {
      if (!print_public) {
        std::cout << store::encode_record(events::without_secrets(record)) << "\n";
        continue;
      }
      if (account && record.event.account != *account) continue;
      auto event = events::to_public_event(record);
      if (!event) {
        std::cerr << "vouchd: " << event.error().message << "\n";
        return 1;
      }
      if (*event) std::cout << events::encode_public_event(**event) << "\n";
    }
    position = page->back().position + 1;
  }
  std::cout.flush();
  if (!values.count("verify")) return 0;

  const auto scratch = std::filesystem::path(data) / "verify-scratch";
  auto differences = store::verify_read_models(*database, log, scratch);
  if (!differences) {
    std::cerr << "vouchd: " << differences.error().message << "\n";
    return 1;
  }
  for (const auto& line : *differences) std::cerr << line << "\n";
  std::cerr << (differences->empty() ? "verify: read models equal a rebuild from the log\n"
                                     : "verify: read models differ from a rebuild\n");
  return differences->empty() ? 0 : 1;
}

}  // namespace vouch::app
