#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <vector>

namespace vouch::app {

// Parses a command's arguments against its options. On a bad or missing
// argument it prints the problem and the command's options to stderr and
// returns false; the command then exits with 2 (usage).
bool parse_command_line(const std::vector<std::string>& args,
                        const boost::program_options::options_description& options,
                        boost::program_options::variables_map& values);

}  // namespace vouch::app
