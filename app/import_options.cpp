#include "app/import_options.hpp"

#include <boost/program_options/value_semantic.hpp>
#include <cstdlib>
#include <sstream>
#include <unistd.h>

namespace vouch::app {

namespace po = boost::program_options;

namespace {

std::filesystem::path git_on_path() {
  const char* path = std::getenv("PATH");
  std::istringstream folders(path ? path : "/usr/bin:/bin");
  std::string folder;
  while (std::getline(folders, folder, ':')) {
    const auto candidate = std::filesystem::path(folder) / "git";
    if (!folder.empty() && ::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

}  // namespace

void add_import_options(po::options_description& options, ImportOptions& values) {
  options.add_options()(
      "import-allow-cidr", po::value(&values.allow_cidrs)->composing(),
      "let repository imports reach this private, loopback or reserved range (repeatable)")(
      "import-allow-file-urls", "let projects import file:// repositories (tests, local mirrors)")(
      "import-clone-timeout-s", po::value(&values.clone_timeout_s),
      "seconds each git step of a repository import may take (default 120)");
}

events::Result<actors::ImportSettings> import_settings(const ImportOptions& options,
                                                       const po::variables_map& values,
                                                       const std::filesystem::path& work_root) {
  actors::ImportSettings settings;
  std::vector<actors::Cidr> allowed;
  for (const auto& text : options.allow_cidrs) {
    auto cidr = actors::Cidr::parse(text);
    if (!cidr) {
      return events::Error::invalid("--import-allow-cidr " + text +
                                    " is not an address or ADDRESS/PREFIX");
    }
    allowed.push_back(*cidr);
  }
  settings.policy = actors::AddressPolicy(std::move(allowed));
  settings.allow_file_urls = values.count("import-allow-file-urls") != 0;
  if (options.clone_timeout_s < 1 || options.clone_timeout_s > 3600) {
    return events::Error::invalid("--import-clone-timeout-s must be from 1 to 3600");
  }
  settings.clone_timeout = std::chrono::seconds(options.clone_timeout_s);
  settings.git = git_on_path();
  settings.work_root = work_root;
  return settings;
}

}  // namespace vouch::app
