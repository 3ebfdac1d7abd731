#include "app/command_line.hpp"

#include <iostream>

namespace vouch::app {

namespace po = boost::program_options;

bool parse_command_line(const std::vector<std::string>& args,
                        const po::options_description& options, po::variables_map& values) {
  try {
    po::store(po::command_line_parser(args).options(options).run(), values);
    po::notify(values);
    return true;
  } catch (const po::error& error) {
    std::cerr << "vouchd: " << error.what() << "\n" << options;
    return false;
  }
}

}  // namespace vouch::app
