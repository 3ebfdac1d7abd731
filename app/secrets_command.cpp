#include "app/secrets_command.hpp"

#include <boost/program_options.hpp>
#include <iostream>

#include "app/command_line.hpp"
#include "app/data_folder.hpp"
#include "secrets/key_store.hpp"
#include "secrets/master_key.hpp"
#include "store/database.hpp"

namespace vouch::app {

namespace po = boost::program_options;

void add_secrets_key_option(po::options_description& options, std::string& key_file) {
  options.add_options()("secrets-key-file", po::value(&key_file),
                        "the master key of webhook secrets at rest: 32 random bytes, mode 0600, "
                        "outside the data folder; created when missing (default "
                        "$XDG_CONFIG_HOME/vouch/secrets.key or ~/.config/vouch/secrets.key)");
}

base::Result<std::filesystem::path> secrets_key_file(const std::string& given) {
  if (!given.empty()) return std::filesystem::path(given);
  return secrets::default_master_key_path();
}

int rotate_master_key(const std::vector<std::string>& args) {
  std::string data, old_file, new_file;
  po::options_description options("vouchd rotate-master-key (with vouchd stopped)");
  options.add_options()("data", po::value(&data)->required(), "data folder")(
      "secrets-key-file", po::value(&old_file)->required(), "the master key in use")(
      "new-key-file", po::value(&new_file)->required(),
      "the new master key (created with mode 0600 when missing)");
  po::variables_map values;
  if (!parse_command_line(args, options, values)) return 2;
  if (std::filesystem::exists(new_file) &&
      std::filesystem::equivalent(std::filesystem::path(new_file),
                                  std::filesystem::path(old_file))) {
    std::cerr << "vouchd: --new-key-file names the key file in use\n";
    return 2;
  }
  auto database = open_data_folder(data);
  if (!database) return 1;
  auto old_key = secrets::read_master_key(old_file);
  if (!old_key) {
    std::cerr << "vouchd: " << old_key.error().message << "\n";
    return 1;
  }
  auto store = secrets::KeyStore::open(*database, std::move(old_key).value());
  if (!store) {
    std::cerr << "vouchd: " << old_file << ": " << store.error().message << "\n";
    return 1;
  }
  if (auto outside = secrets::check_outside_data_folder(new_file, data); !outside) {
    std::cerr << "vouchd: " << outside.error().message << "\n";
    return 2;
  }
  auto new_key = secrets::read_master_key(new_file);
  if (!new_key && new_key.error().code == base::ErrorCode::kNotFound) {
    new_key = secrets::create_master_key(new_file);
  }
  if (!new_key) {
    std::cerr << "vouchd: " << new_key.error().message << "\n";
    return 1;
  }
  auto rewrapped = (*store)->rewrap(*new_key);
  if (!rewrapped) {
    std::cerr << "vouchd: " << rewrapped.error().message << "\n";
    return 1;
  }
  std::cout << "rewrapped " << *rewrapped << " data keys under " << new_file
            << "; start vouchd with --secrets-key-file " << new_file << " and destroy " << old_file
            << std::endl;
  return 0;
}

}  // namespace vouch::app
