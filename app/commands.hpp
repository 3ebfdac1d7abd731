#pragma once

#include <string>
#include <vector>

// The executable's commands (README.md, "The executable"). Each takes its own arguments (after
// the command words) and returns the process exit code.
namespace vouch::app {

int serve(const std::vector<std::string>& args);
int create_key(const std::vector<std::string>& args);
int replay(const std::vector<std::string>& args);
// A worker process that offers its generators and executors to a server.
int worker(const std::vector<std::string>& args);

}  // namespace vouch::app
