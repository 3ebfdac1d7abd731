#pragma once

#include <string>
#include <vector>

// The executable's commands (README.md, "The executable"). Each takes its own arguments (after
// the command words) and returns the process exit code.
namespace vouch::app {

int serve(const std::vector<std::string>& args);
int create_key(const std::vector<std::string>& args);
int replay(const std::vector<std::string>& args);
// Rewrites what the event log derives from its events (counter, stream heads)
// when they differ and the events are whole (app/storage_commands.cpp).
int repair(const std::vector<std::string>& args);
// A verified copy of a data folder, live or not (app/storage_commands.cpp).
int backup(const std::vector<std::string>& args);
// A worker process that offers its generators and executors to a server.
int worker(const std::vector<std::string>& args);

}  // namespace vouch::app
