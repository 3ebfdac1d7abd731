#include "process/sandbox/options.hpp"

#include <unistd.h>

#include <charconv>
#include <map>
#include <optional>
#include <utility>

namespace vouch::sandbox {
namespace {

constexpr std::string_view kValueOptions[] = {"--cpu-seconds", "--memory-mb", "--max-procs",
                                              "--max-file-mb", "--wall-ms",   "--uid",
                                              "--hide",        "--ro",        "--isolation"};

bool takes_value(std::string_view name) {
  for (auto known : kValueOptions) {
    if (known == name) return true;
  }
  return false;
}

// Each isolation mode and its name on the command line, both ways.
constexpr std::pair<Isolation, std::string_view> kIsolationNames[] = {
    {Isolation::kAuto, "auto"},
    {Isolation::kBubblewrap, "bubblewrap"},
    {Isolation::kUnshare, "unshare"},
    {Isolation::kNone, "none"}};

std::optional<Isolation> isolation_named(std::string_view name) {
  for (const auto& [isolation, known] : kIsolationNames) {
    if (known == name) return isolation;
  }
  return std::nullopt;
}

base::Error usage(std::string message) { return base::Error::invalid(std::move(message)); }

// A positive integer that a JavaScript number holds exactly (the limits were
// Number.isSafeInteger before), or the fallback when the option is absent.
base::Result<std::uint64_t> positive_integer(const std::multimap<std::string, std::string>& values,
                                             const std::string& name, std::uint64_t fallback) {
  auto found = values.find(name);
  if (found == values.end()) return fallback;
  const auto& text = found->second;
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  constexpr std::uint64_t kMaxSafeInteger = (std::uint64_t{1} << 53) - 1;
  if (ec != std::errc() || end != text.data() + text.size() || value == 0 ||
      value > kMaxSafeInteger) {
    return usage(name + " must be a positive integer");
  }
  return value;
}

// Normalised, without a trailing slash (but "/"): how bwrap's arguments and
// the mount-point parents expect a folder.
std::filesystem::path normal_folder(const std::filesystem::path& path) {
  auto text = path.lexically_normal().string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return text;
}

base::Result<std::filesystem::path> absolute_path(const std::string& value) {
  std::filesystem::path path(value);
  if (!path.is_absolute()) return usage("not an absolute path: " + value);
  return normal_folder(path);
}

base::Result<std::vector<std::filesystem::path>> absolute_paths(
    const std::multimap<std::string, std::string>& values, const std::string& name) {
  std::vector<std::filesystem::path> paths;
  auto [first, last] = values.equal_range(name);
  for (auto it = first; it != last; ++it) {
    auto path = absolute_path(it->second);
    if (!path) return std::move(path).error();
    paths.push_back(std::move(path).value());
  }
  return paths;
}

}  // namespace

const char* const kUsage =
    "usage: vouch-sandbox WORKDIR [options] -- COMMAND [ARG...]\n"
    "       vouch-sandbox --probe\n"
    "options:\n"
    "  --cpu-seconds N   CPU time of each process (default 30)\n"
    "  --memory-mb N     private memory of each process (default 1024)\n"
    "  --max-procs N     processes and threads of the sandbox uid (default 128)\n"
    "  --max-file-mb N   largest file it may write; /tmp holds twice that (default 64)\n"
    "  --wall-ms N       wall time, counted from the first byte on stdin (default 60000)\n"
    "  --hide PATH       cover PATH with an empty read-only folder (repeatable)\n"
    "  --ro PATH         make PATH visible read-only, even inside a hidden one (repeatable)\n"
    "  --uid N           uid to run as when started as root (default 1879048192 + pid)\n"
    "  --isolation MODE  auto, bubblewrap, unshare or none (default auto)";

std::string_view name_of(Isolation isolation) {
  for (const auto& [known, name] : kIsolationNames) {
    if (known == isolation) return name;
  }
  return "none";
}

std::uint64_t default_uid() { return kUidBase + static_cast<std::uint64_t>(::getpid()); }

base::Result<Options> parse_options(const std::vector<std::string>& argv) {
  Options options;
  if (argv.size() == 1 && argv[0] == "--probe") {
    options.probe = true;
    return options;
  }
  std::size_t separator = 0;
  while (separator < argv.size() && argv[separator] != "--") ++separator;
  if (separator + 1 >= argv.size()) return usage("missing -- COMMAND");

  std::multimap<std::string, std::string> values;
  std::vector<std::string> positionals;
  for (std::size_t i = 0; i < separator; ++i) {
    const auto& arg = argv[i];
    if (arg.rfind("--", 0) != 0) {
      positionals.push_back(arg);
      continue;
    }
    const auto equals = arg.find('=');
    const auto name = arg.substr(0, equals);
    if (!takes_value(name)) return usage("Unknown option '" + name + "'");
    std::string value;
    if (equals != std::string::npos) {
      value = arg.substr(equals + 1);
    } else if (i + 1 < separator) {
      value = argv[++i];
    } else {
      return usage("Option '" + name + " <value>' argument missing");
    }
    // --hide and --ro repeat; of any other option the last one counts, so a
    // caller can override a value given before.
    if (name != "--hide" && name != "--ro") values.erase(name);
    values.emplace(name, std::move(value));
  }
  if (positionals.size() != 1) return usage("expected exactly one WORKDIR");

  if (auto isolation = values.find("--isolation"); isolation != values.end()) {
    auto named = isolation_named(isolation->second);
    if (!named) return usage("unknown isolation: " + isolation->second);
    options.isolation = *named;
  }
  std::error_code ec;
  options.workdir = normal_folder(std::filesystem::absolute(positionals[0], ec));
  if (ec || !std::filesystem::is_directory(options.workdir, ec)) {
    return usage("WORKDIR is not a folder: " + positionals[0]);
  }
  options.command.assign(argv.begin() + static_cast<std::ptrdiff_t>(separator) + 1, argv.end());

  const Limits defaults;
  struct Field {
    const char* name;
    std::uint64_t Limits::*member;
  };
  for (const auto& field :
       {Field{"--cpu-seconds", &Limits::cpu_seconds}, Field{"--memory-mb", &Limits::memory_mb},
        Field{"--max-procs", &Limits::max_procs}, Field{"--max-file-mb", &Limits::max_file_mb},
        Field{"--wall-ms", &Limits::wall_ms}}) {
    auto value = positive_integer(values, field.name, defaults.*field.member);
    if (!value) return std::move(value).error();
    options.limits.*field.member = *value;
  }
  auto uid = positive_integer(values, "--uid", default_uid());
  if (!uid) return std::move(uid).error();
  options.uid = *uid;
  auto hide = absolute_paths(values, "--hide");
  if (!hide) return std::move(hide).error();
  options.hide = std::move(hide).value();
  auto read_only = absolute_paths(values, "--ro");
  if (!read_only) return std::move(read_only).error();
  options.read_only = std::move(read_only).value();
  return options;
}

}  // namespace vouch::sandbox
