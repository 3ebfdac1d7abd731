#pragma once

#include <string>

namespace vouch::app {

// Raises this process's soft limit of open files to its hard limit, as nginx
// (worker_rlimit_nofile) and Go's runtime do: the soft limit is often 1024,
// and webhook fan-out alone keeps up to 16 connections per webhook open.
// Returns a line for the log saying what the limit is.
std::string raise_open_file_limit();

}  // namespace vouch::app
