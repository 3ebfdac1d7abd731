#pragma once

#include <boost/program_options/options_description.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "base/result.hpp"

// The master key of webhook secrets at rest, on the command line.
namespace vouch::app {

// --secrets-key-file PATH.
void add_secrets_key_option(boost::program_options::options_description& options,
                            std::string& key_file);

// `given`, or secrets::default_master_key_path() when it is empty.
[[nodiscard]] base::Result<std::filesystem::path> secrets_key_file(const std::string& given);

// vouchd rotate-master-key --data DIR --secrets-key-file OLD --new-key-file NEW:
// rewraps every data key of the (stopped) folder under the key in NEW (created
// with mode 0600 when absent), then drops the old wrappings from its files.
int rotate_master_key(const std::vector<std::string>& args);

}  // namespace vouch::app
