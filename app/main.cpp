#include <linux/close_range.h>
#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "app/commands.hpp"
#include "app/secrets_command.hpp"
#include "log/log.hpp"

// jemalloc's settings (vouchd links it; a build without it ignores this).
// Freed pages go back to the system from a background thread, a second after
// they were last used, instead of when the next allocations happen to pass
// by: an idle server returns what a burst of load used.
extern "C" {
// NOLINTNEXTLINE: the name jemalloc reads.
const char* malloc_conf = "background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0";
}

namespace {

constexpr const char* kUsage =
    "usage:\n"
    "  vouchd [serve] --data DIR --listen HOST:PORT [--memory-mb MB]\n"
    "  vouchd keys create --data DIR --account NAME --plan PLAN --scopes S1,S2 [--name NAME]\n"
    "  vouchd replay --data DIR [--from POSITION] [--verify]\n"
    "  vouchd repair --data DIR [--dry-run]\n"
    "  vouchd backup --data DIR --to NEW_DIR\n"
    "  vouchd rotate-master-key --data DIR --secrets-key-file OLD --new-key-file NEW\n"
    "  vouchd worker --connect HOST:PORT [--generators N] [--executors N] [--data DIR]\n"
    "                [--workers-ca FILE --workers-cert FILE --workers-key FILE]\n";

int command(const std::vector<std::string>& args) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h" || args[0] == "help")) {
    std::cout << kUsage;
    return 0;
  }
  if (args.empty() || args[0].rfind("--", 0) == 0) return vouch::app::serve(args);
  if (args[0] == "serve") return vouch::app::serve({args.begin() + 1, args.end()});
  if (args.size() >= 2 && args[0] == "keys" && args[1] == "create") {
    return vouch::app::create_key({args.begin() + 2, args.end()});
  }
  if (args[0] == "replay") return vouch::app::replay({args.begin() + 1, args.end()});
  if (args[0] == "repair") return vouch::app::repair({args.begin() + 1, args.end()});
  if (args[0] == "backup") return vouch::app::backup({args.begin() + 1, args.end()});
  if (args[0] == "rotate-master-key") {
    return vouch::app::rotate_master_key({args.begin() + 1, args.end()});
  }
  if (args[0] == "worker") return vouch::app::worker({args.begin() + 1, args.end()});
  std::cerr << "vouchd: unknown command \"" << args[0] << "\"\n" << kUsage;
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  // What vouchd inherited above stdio (a shell's or supervisor's pipes) is
  // no business of its children: marked close-on-exec before anything starts.
  ::close_range(STDERR_FILENO + 1, ~0U, CLOSE_RANGE_CLOEXEC);
  const int status = command({argv + 1, argv + argc});
  vouch::log::flush();  // the log's last lines before the process ends
  return status;
}
