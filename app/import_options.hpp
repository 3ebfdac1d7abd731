#pragma once

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "actors/domain/project_importer.hpp"
#include "base/result.hpp"

namespace vouch::app {

// The raw values of vouchd serve's import flags.
struct ImportOptions {
  std::vector<std::string> allow_cidrs;
  unsigned clone_timeout_s = 120;
};

// --import-allow-cidr CIDR (repeatable), --import-allow-file-urls,
// --import-clone-timeout-s S.
void add_import_options(boost::program_options::options_description& options,
                        ImportOptions& values);

// kInvalid naming the flag when a value is unusable. git is looked up on
// PATH (none: repository imports answer 503). work_root is left to the
// service (its runner's).
[[nodiscard]] base::Result<actors::ImportSettings> import_settings(
    const ImportOptions& options, const boost::program_options::variables_map& values);

}  // namespace vouch::app
