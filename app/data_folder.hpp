#pragma once

#include <memory>
#include <string>

#include "store/database.hpp"

namespace vouch::app {

// Opens the data folder an offline command names (`--data`). When the folder
// does not exist or cannot be opened, prints why to stderr and returns null;
// the command then exits with 1.
std::unique_ptr<store::Database> open_data_folder(const std::string& data);

}  // namespace vouch::app
