#include "app/data_folder.hpp"

#include <filesystem>
#include <iostream>

namespace vouch::app {

std::unique_ptr<store::Database> open_data_folder(const std::string& data) {
  if (!std::filesystem::exists(data)) {
    std::cerr << "vouchd: no data folder " << data << "\n";
    return nullptr;
  }
  auto database = store::Database::open(data);
  if (!database) {
    std::cerr << "vouchd: " << database.error().message << "\n";
    return nullptr;
  }
  return std::move(database).value();
}

}  // namespace vouch::app
