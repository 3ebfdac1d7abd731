#include "http/import_handlers.hpp"

#include <algorithm>
#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>
#include <set>

#include "base/clock.hpp"
#include "base/ids.hpp"
#include "events/access.hpp"
#include "events/resource_json.hpp"
#include "http/json_body.hpp"
#include "http/reply.hpp"
#include "store/snapshots.hpp"

namespace vouch::http {
namespace {

constexpr std::size_t kMaxRefLength = 200;

std::string lower_media_type(std::string_view content_type) {
  std::string media(content_type.substr(0, content_type.find(';')));
  while (!media.empty() && media.back() == ' ') media.pop_back();
  for (auto& c : media) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return media;
}

// A branch or tag name as git accepts it, never an option or a path escape.
std::optional<std::string> invalid_ref(const std::string& ref) {
  if (ref.empty() || ref.size() > kMaxRefLength) {
    return "must be 1 to " + std::to_string(kMaxRefLength) + " characters";
  }
  if (ref.front() == '-' || ref.front() == '/' || ref.back() == '/' || ref.back() == '.') {
    return "is not a branch or tag name";
  }
  if (ref.find("..") != std::string::npos || ref.find("//") != std::string::npos ||
      ref.find("@{") != std::string::npos) {
    return "is not a branch or tag name";
  }
  for (const char c : ref) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-' &&
        c != '/') {
      return "may hold letters, digits and . _ - / only";
    }
  }
  return std::nullopt;
}

// Fills `command` from a JSON body: an upload or a git ref.
void read_json_import(JsonBody& body, const events::Project& project,
                      actors::ImportRequest& command) {
  const bool files = body.has("files");
  const bool git = body.has("git");
  if (files == git) {
    body.reject(files ? "git" : "files",
                "send either files, or git (the project's repository), or a .tar.gz body");
    return;
  }
  if (git) {
    command.source = events::kImportGit;
    command.repository = project.repository;
    if (project.repository.empty()) {
      body.reject("git", "the project has no repository to clone");
    }
    if (auto ref = body.string("git.ref")) {
      if (auto problem = invalid_ref(*ref)) body.reject("git.ref", *problem);
      command.ref = std::move(*ref);
    }
    return;
  }
  command.source = events::kImportUpload;
  const auto count = body.array_size("files");
  if (!count) return;
  if (*count == 0) return body.reject("files", "must hold at least one file");
  std::set<std::string> seen;
  for (std::size_t i = 0; i < *count; ++i) {
    const auto index = "files[" + std::to_string(i) + "]";
    body.require(index + ".path");
    body.require(index + ".content");
    auto path = body.string(index + ".path");
    auto content = body.string(index + ".content");
    if (!path || !content) continue;
    if (auto problem = events::invalid_upload_path(*path)) {
      body.reject(index + ".path", *problem);
    } else if (!seen.insert(*path).second) {
      body.reject(index + ".path", "names the same file as an earlier entry: " + *path);
    } else {
      command.files.push_back({std::move(*path), std::move(*content)});
    }
  }
}

// The snapshot as project.imported shows it, and what was left out.
boost::json::object to_json(const std::string& project_id, const actors::ImportedSnapshot& done,
                            base::Millis at) {
  auto out = events::snapshot_resource(project_id, done.snapshot, at);
  out["skipped"] = boost::json::array(done.skipped.begin(), done.skipped.end());
  return out;
}

void import_project(actors::Service& service, const store::ProjectsView& projects,
                    const Request& request, const Context& context, Respond respond) {
  const auto* found_id = path_id(context, respond, "id", base::kProjectIdPrefix, "project");
  if (!found_id) return;
  const auto& id = *found_id;
  auto project = projects.get(context.caller.account, id);
  if (!project) return respond(error_response(project.error(), context.request_id));

  actors::ImportRequest command;
  command.project_id = id;
  command.account = context.caller.account;
  command.at = base::now_millis();
  if (is_gzip(request.content_type)) {
    command.source = events::kImportArchive;
    command.archive = request.body;
  } else {
    auto body = JsonBody::parse(request.body);
    if (!body) return respond(error_response(body.error(), context.request_id));
    read_json_import(*body, *project, command);
    if (!body->errors().empty()) {
      return respond(error_response(body->error(), context.request_id));
    }
  }
  const auto at = command.at;
  service.import_project(
      std::move(command),
      answer_with<actors::ImportedSnapshot>(std::move(respond), context.request_id, 201,
                                            [id, at](const actors::ImportedSnapshot& imported) {
                                              return to_json(id, imported, at);
                                            }));
}

// The files package.json's `bin` names (npm runs them whatever their name, as
// `bin/cli` with a `#!/usr/bin/env node` line): programs generation tests.
std::set<std::string> program_paths(const store::SnapshotStore& store,
                                    const store::Snapshot& snapshot) {
  std::set<std::string> paths;
  const auto manifest =
      std::find_if(snapshot.files.begin(), snapshot.files.end(),
                   [](const auto& entry) { return entry.path == "package.json"; });
  if (manifest == snapshot.files.end()) return paths;
  auto files = store.files(store::Snapshot{snapshot.id, {*manifest}, manifest->size});
  if (!files || files->empty()) return paths;
  boost::system::error_code ec;
  const auto data = boost::json::parse(files->front().content, ec);
  if (ec || !data.is_object()) return paths;
  const auto* bin = data.as_object().if_contains("bin");
  const auto add = [&](const boost::json::value& target) {
    if (!target.is_string()) return;
    std::string_view path = target.as_string();
    while (path.starts_with("./")) path.remove_prefix(2);
    paths.emplace(path);
  };
  if (bin && bin->is_object()) {
    for (const auto& [name, target] : bin->as_object()) add(target);
  } else if (bin) {
    add(*bin);
  }
  return paths;
}

}  // namespace

base::Result<std::vector<events::SourceFile>> snapshot_sources(
    const actors::Service& service, const store::ProjectsView& projects,
    const std::string& project_id, const std::optional<std::string>& snapshot_id,
    const std::vector<std::string>& prefixes) {
  const auto* store = service.snapshots();
  if (!store) return base::Error::unavailable("imports are not configured", 60);
  std::string id;
  if (snapshot_id) {
    auto imported = projects.has_snapshot(project_id, *snapshot_id);
    if (!imported) return std::move(imported).error();
    if (!*imported) {
      return base::Error::invalid("no such snapshot of this project",
                                  {{"snapshotId", "was not imported into " + project_id}});
    }
    id = *snapshot_id;
  } else {
    auto latest = projects.latest_snapshot(project_id);
    if (!latest) return std::move(latest).error();
    if (!*latest) {
      return base::Error::invalid(
          "send files, or import the project's sources first",
          {{"files", "is required: no snapshot was imported into " + project_id}});
    }
    id = std::move(**latest);
  }
  auto snapshot = store->find(id);
  if (!snapshot) return std::move(snapshot).error();
  if (!*snapshot) return base::Error::internal("snapshot " + id + " is missing");
  const auto programs = program_paths(*store, **snapshot);
  const auto wanted = [&](const std::string& path) {
    // The package's package.json comes along whatever the paths: it says how
    // the files are read (their module type, the package's entry points).
    const bool selected = prefixes.empty() || path == "package.json" ||
                          std::any_of(prefixes.begin(), prefixes.end(),
                                      [&](const auto& prefix) { return path.starts_with(prefix); });
    return selected && (events::is_javascript_path(path) || path.ends_with(".json") ||
                        path.ends_with(".d.ts") || programs.contains(path));
  };
  store::Snapshot chosen{(*snapshot)->id, {}, 0};
  std::size_t sources = 0;
  bool package = false;
  for (const auto& entry : (*snapshot)->files) {
    if (!wanted(entry.path)) continue;
    chosen.files.push_back(entry);
    if (events::is_javascript_path(entry.path)) ++sources;
    package = package || entry.path == "package.json";
  }
  // A whole package of data alone (JSON) is still a package: its summary says
  // there is nothing to test. Paths that name no source are a bad filter.
  if (sources == 0 && !(package && prefixes.empty())) {
    return base::Error::invalid("the snapshot holds no JavaScript or TypeScript source" +
                                    std::string(prefixes.empty() ? "" : " under paths"),
                                {{prefixes.empty() ? "snapshotId" : "paths", "has no source"}});
  }
  // No count limit here: the import's limits bound a snapshot, and generation
  // picks what to test in a package of any size (the entry points first, up to
  // a cap the summary states; its budget grows with the package).
  return store->files(chosen);
}

bool is_import_upload(std::string_view method, std::string_view target) {
  constexpr std::string_view kPrefix = "/v1/projects/";
  constexpr std::string_view kSuffix = "/import";
  if (method != "POST") return false;
  const auto path = target.substr(0, target.find('?'));
  if (!path.starts_with(kPrefix) || !path.ends_with(kSuffix)) return false;
  if (path.size() <= kPrefix.size() + kSuffix.size()) return false;
  const auto id = path.substr(kPrefix.size(), path.size() - kPrefix.size() - kSuffix.size());
  return id.find('/') == std::string_view::npos;
}

bool is_gzip(std::string_view content_type) {
  const auto media = lower_media_type(content_type);
  return media == "application/gzip" || media == "application/x-gzip";
}

void add_import_routes(Router& router, actors::Service& service,
                       const store::ProjectsView& projects) {
  router.add({"POST", "/v1/projects/{id}/import", std::string(events::kScopeProjectsWrite), true,
              bind_handler(import_project, std::ref(service), std::ref(projects)),
              /*accepts_gzip=*/true});
}

}  // namespace vouch::http
