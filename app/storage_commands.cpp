// `vouchd repair` and `vouchd backup`: the data folder's upkeep.
#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>

#include "app/admin_socket.hpp"
#include "app/command_line.hpp"
#include "app/commands.hpp"
#include "app/data_folder.hpp"
#include "store/backup.hpp"
#include "store/database.hpp"
#include "store/log_repair.hpp"

namespace vouch::app {

namespace po = boost::program_options;

int repair(const std::vector<std::string>& args) {
  std::string data;
  po::options_description options("vouchd repair");
  options.add_options()("data", po::value(&data)->required(), "data folder (vouchd stopped)")(
      "dry-run", "explain what differs without changing anything");
  po::variables_map values;
  if (!parse_command_line(args, options, values)) return 2;
  auto database = open_data_folder(data);
  if (!database) return 1;
  auto report = store::repair_log(*database, values.count("dry-run") == 0);
  if (!report) {
    std::cerr << "vouchd: " << report.error().message << "\n";
    return 1;
  }
  std::cout << "the event log holds positions 1 to " << report->end << "\n";
  if (!report->damaged.empty()) {
    std::cout << "the events themselves are damaged; there is no safe fix, nothing was changed "
                 "(restore a backup):\n";
    for (const auto& line : report->damaged) std::cout << "  " << line << "\n";
    return 1;
  }
  if (report->derived.empty()) {
    std::cout << "the stored counter, stream heads and index agree with the events; nothing to "
                 "repair\n";
    return 0;
  }
  std::cout << "derived from the events, and differing from them:\n";
  for (const auto& line : report->derived) std::cout << "  " << line << "\n";
  if (!report->repaired) {
    std::cout << "nothing was changed (--dry-run); without it, these are rewritten from the "
                 "events\n";
    return 1;
  }
  std::cout << "rewritten from the events: the counter, every stream head and index entry now "
               "agree with positions 1 to "
            << report->end << "\n";
  return 0;
}

int backup(const std::vector<std::string>& args) {
  std::string data;
  std::string to;
  po::options_description options("vouchd backup");
  options.add_options()("data", po::value(&data)->required(), "data folder (vouchd may run on it)")(
      "to", po::value(&to)->required(), "a folder that does not exist yet");
  po::variables_map values;
  if (!parse_command_line(args, options, values)) return 2;
  if (!std::filesystem::exists(data)) {
    std::cerr << "vouchd: no data folder " << data << "\n";
    return 1;
  }
  const auto destination = std::filesystem::absolute(to).lexically_normal();
  std::uint64_t last_position = 0;
  bool done = false;
  // A running vouchd holds the database lock: it takes the checkpoint. When
  // none answers, the folder is opened here.
  if (std::filesystem::exists(AdminSocket::path_in(data))) {
    auto answer = ask_admin_socket(data, "backup " + destination.string());
    if (answer) {
      if (answer->rfind("ok ", 0) != 0) {
        std::cerr << "vouchd: " << (answer->rfind("error ", 0) == 0 ? answer->substr(6) : *answer)
                  << "\n";
        return 1;
      }
      last_position = std::stoull(answer->substr(3));
      done = true;
    } else if (answer.error().code != base::ErrorCode::kUnavailable) {
      std::cerr << "vouchd: " << answer.error().message << "\n";
      return 1;
    }
  }
  if (!done) {
    auto database = open_data_folder(data);
    if (!database) return 1;
    auto report = store::back_up(*database, destination);
    if (!report) {
      std::cerr << "vouchd: " << report.error().message << "\n";
      return 1;
    }
    last_position = report->last_position;
  }
  std::cout << "backup of " << data << " written to " << destination.string()
            << " and verified: its event log ends at position " << last_position
            << ". To restore, start vouchd with --data " << destination.string() << "\n";
  return 0;
}

}  // namespace vouch::app
