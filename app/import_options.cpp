#include "app/import_options.hpp"

#include <boost/program_options/value_semantic.hpp>

#include "app/runner_setup.hpp"

namespace vouch::app {

namespace po = boost::program_options;

constexpr unsigned kMaxCloneTimeoutSeconds = 3600;  // the longest --import-clone-timeout-s

void add_import_options(po::options_description& options, ImportOptions& values) {
  options.add_options()(
      "import-allow-cidr", po::value(&values.allow_cidrs)->composing(),
      "let repository imports reach this private, loopback or reserved range (repeatable)")(
      "import-allow-file-urls", "let projects import file:// repositories (tests, local mirrors)")(
      "import-clone-timeout-s", po::value(&values.clone_timeout_s),
      "seconds each git step of a repository import may take (default 120)");
}

base::Result<actors::ImportSettings> import_settings(const ImportOptions& options,
                                                     const po::variables_map& values) {
  actors::ImportSettings settings;
  auto allowed = transport::Cidr::parse_all(options.allow_cidrs, "--import-allow-cidr");
  if (!allowed) return std::move(allowed).error();
  settings.policy = transport::AddressPolicy(std::move(allowed).value());
  settings.allow_file_urls = values.count("import-allow-file-urls") != 0;
  if (options.clone_timeout_s < 1 || options.clone_timeout_s > kMaxCloneTimeoutSeconds) {
    return base::Error::invalid("--import-clone-timeout-s must be from 1 to " +
                                std::to_string(kMaxCloneTimeoutSeconds));
  }
  settings.clone_timeout = std::chrono::seconds(options.clone_timeout_s);
  settings.git = on_path("git").value_or(std::filesystem::path());
  return settings;
}

}  // namespace vouch::app
