#include "actors/domain/project_importer.hpp"

#include <netdb.h>
#include <sys/socket.h>

#include <boost/url/parse.hpp>
#include <future>
#include <memory>

#include "actors/errors.hpp"
#include "actors/timeouts.hpp"
#include "base/ids.hpp"
#include "store/blob_store.hpp"

namespace vouch::actors {
namespace {

namespace fs = std::filesystem;
using Done = std::function<void(base::Result<ImportedSnapshot>)>;

struct GitOutcome {
  process::ProcessExit exit;
  std::string first_line;  // of stdout
};

// Runs git with `args` and waits for its end. Called on a detached actor.
base::Result<GitOutcome> run_git(process::ProcessHost& host, const ImportSettings& settings,
                                 const fs::path& scratch, std::vector<std::string> args) {
  process::ProcessSpec spec;
  spec.program = settings.git;
  spec.args = std::move(args);
  spec.cwd = scratch;
  spec.env = {
      "PATH=/usr/local/bin:/usr/bin:/bin",
      "HOME=" + scratch.string(),
      "LC_ALL=C",
      "GIT_CONFIG_NOSYSTEM=1",
      "GIT_CONFIG_GLOBAL=/dev/null",
      "GIT_TERMINAL_PROMPT=0",
      std::string("GIT_ALLOW_PROTOCOL=") + (settings.allow_file_urls ? "https:file" : "https")};
  auto child = process::ChildProcess::start(host, std::move(spec));
  if (!child) return std::move(child).error();
  auto outcome = std::make_shared<std::promise<GitOutcome>>();
  auto future = outcome->get_future();
  auto process = *child;
  const auto timeout =
      std::chrono::duration_cast<std::chrono::milliseconds>(settings.clone_timeout);
  process->exchange(
      {}, true, timeout, [process, outcome, timeout](std::optional<std::string> line) {
        process->wait(timeout, [outcome, line = line.value_or("")](process::ProcessExit exit) {
          outcome->set_value(GitOutcome{std::move(exit), line});
        });
      });
  return future.get();
}

base::Error git_failure(const std::string& what, const process::ProcessExit& exit) {
  if (exit.killed) return base::Error::unavailable(what + " took too long and was stopped", 5);
  auto tail = exit.stderr_tail;
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.pop_back();
  return base::Error::invalid(what + " failed: " + tail, {{"repository", tail}});
}

// The repository may be cloned: https to addresses the policy allows, or
// file:// where the server allows it.
base::Status check_repository(const ImportSettings& settings, const std::string& repository) {
  auto url = boost::urls::parse_absolute_uri(repository);
  if (!url) {
    return base::Error::invalid("the project's repository is not a URL",
                                {{"repository", "must be an https:// URL to clone"}});
  }
  const auto scheme = url->scheme();
  if (scheme == "file") {
    if (settings.allow_file_urls) return base::ok_status();
    return base::Error::invalid("file:// repositories are not allowed on this server",
                                {{"repository", "must be an https:// URL"}});
  }
  if (scheme != "https") {
    return base::Error::invalid("only https repositories are cloned",
                                {{"repository", "must be an https:// URL"}});
  }
  const std::string host(url->host_address());
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (::getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0 || !found) {
    return base::Error::invalid("the repository's host " + host + " does not resolve",
                                {{"repository", "unknown host"}});
  }
  std::unique_ptr<addrinfo, void (*)(addrinfo*)> addresses(found, ::freeaddrinfo);
  for (const addrinfo* at = found; at; at = at->ai_next) {
    char text[NI_MAXHOST] = {};
    if (::getnameinfo(at->ai_addr, at->ai_addrlen, text, sizeof text, nullptr, 0, NI_NUMERICHOST) !=
        0) {
      continue;
    }
    auto address = transport::IpAddress::parse(text);
    if (!address) continue;
    if (auto refusal = settings.policy.refusal(*address)) {
      return base::Error::invalid("the repository's host " + host + " is " + *refusal,
                                  {{"repository", "must reach a public address"}});
    }
  }
  return base::ok_status();
}

// Clones the ref shallowly and bare (nothing of the repository is checked
// out) and reads its tree through `git archive`.
base::Result<std::pair<store::SnapshotContents, std::string>> fetch_repository(
    process::ProcessHost& host, const ImportSettings& settings, const ImportRequest& request) {
  if (settings.git.empty()) {
    return base::Error::unavailable("git is not installed on this server", 60);
  }
  if (auto allowed = check_repository(settings, request.repository); !allowed) {
    return std::move(allowed).error();
  }
  const fs::path scratch = settings.work_root / ("import-" + base::new_id(""));
  std::error_code ec;
  fs::create_directories(scratch, ec);
  if (ec) return base::Error::internal("cannot create " + scratch.string());
  struct Cleanup {
    fs::path folder;
    ~Cleanup() {
      std::error_code ignored;
      fs::remove_all(folder, ignored);
    }
  } cleanup{scratch};
  const auto bare = (scratch / "repository.git").string();
  std::vector<std::string> clone{"-c",     "http.followRedirects=false",
                                 "clone",  "--quiet",
                                 "--bare", "--depth",
                                 "1",      "--single-branch"};
  if (!request.ref.empty()) {
    clone.push_back("--branch");
    clone.push_back(request.ref);
  }
  clone.insert(clone.end(), {"--", request.repository, bare});
  auto cloned = run_git(host, settings, scratch, clone);
  if (!cloned) return std::move(cloned).error();
  if (cloned->exit.code != 0) return git_failure("git clone", cloned->exit);

  auto head = run_git(host, settings, scratch, {"--git-dir=" + bare, "rev-parse", "HEAD"});
  if (!head) return std::move(head).error();
  if (head->exit.code != 0) return git_failure("git rev-parse", head->exit);

  const auto tar = scratch / "snapshot.tar";
  auto archived =
      run_git(host, settings, scratch,
              {"--git-dir=" + bare, "archive", "--format=tar", "-o", tar.string(), "HEAD"});
  if (!archived) return std::move(archived).error();
  if (archived->exit.code != 0) return git_failure("git archive", archived->exit);
  // The tar holds the files, their headers and padding: allow for both.
  if (fs::file_size(tar, ec) > 2 * settings.limits.max_bytes + (16u << 20)) {
    return base::Error::too_large("the repository holds more than " +
                                  std::to_string(settings.limits.max_bytes) + " bytes");
  }
  auto bytes = store::read_whole(tar);
  if (!bytes) return base::Error::internal("cannot read the repository's archive");
  auto contents = store::read_snapshot_archive(*bytes, settings.limits, store::LinkPolicy::kSkip);
  if (!contents) return std::move(contents).error();
  return std::pair{std::move(contents).value(), head->first_line};
}

// The files of the import, and the commit for a repository.
base::Result<std::pair<store::SnapshotContents, std::string>> read_import(
    process::ProcessHost& host, const ImportSettings& settings, ImportRequest& request) {
  if (request.source == events::kImportGit) return fetch_repository(host, settings, request);
  auto contents = request.source == events::kImportArchive
                      ? store::read_snapshot_archive(request.archive, settings.limits,
                                                     store::LinkPolicy::kRefuse)
                      : store::select_snapshot_files(std::move(request.files), settings.limits);
  if (!contents) return std::move(contents).error();
  return std::pair{std::move(contents).value(), std::string()};
}

}  // namespace

void import_snapshot(caf::actor_system& system, const ImportSettings* settings,
                     process::ProcessHost* processes, store::SnapshotStore* snapshots,
                     project_registry_actor projects, ImportRequest request, Done done) {
  system.spawn<caf::detached>([settings, processes, snapshots, projects,
                               request = std::move(request),
                               done = std::move(done)](caf::event_based_actor* self) mutable {
    auto read = read_import(*processes, *settings, request);
    if (!read) return done(std::move(read).error());
    auto& [contents, commit] = *read;
    auto stored = snapshots->put(contents.files);
    if (!stored) return done(std::move(stored).error());
    events::SnapshotSummary summary{stored->id,
                                    static_cast<std::int64_t>(stored->files.size()),
                                    static_cast<std::int64_t>(stored->bytes),
                                    request.source,
                                    request.ref,
                                    commit};
    events::ImportProject command{request.project_id, request.account, summary, request.at};
    self->request(projects, kAppendTimeout, std::move(command))
        .then(
            [done, summary, skipped = std::move(contents.skipped)](events::Project&) mutable {
              done(ImportedSnapshot{std::move(summary), std::move(skipped)});
            },
            [done](caf::error& error) { done(from_caf_error(error)); });
  });
}

}  // namespace vouch::actors
