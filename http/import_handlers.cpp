#include "http/import_handlers.hpp"

#include <boost/json/array.hpp>
#include <set>

#include "events/clock.hpp"
#include "events/ids.hpp"
#include "events/scopes.hpp"
#include "http/json_body.hpp"
#include "http/reply.hpp"

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
  if (ref.empty() || ref.size() > kMaxRefLength) return "must be 1 to 200 characters";
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

boost::json::object to_json(const std::string& project_id, const actors::ImportedSnapshot& done,
                            events::Millis at) {
  const auto& snapshot = done.snapshot;
  boost::json::object out{{"projectId", project_id},
                          {"snapshotId", snapshot.snapshot_id},
                          {"files", snapshot.files},
                          {"bytes", snapshot.bytes},
                          {"source", snapshot.source},
                          {"created", events::format_timestamp(at)}};
  if (snapshot.source == events::kImportGit) {
    out["ref"] = snapshot.ref.empty() ? boost::json::value(nullptr) : boost::json::value(snapshot.ref);
    out["commit"] = snapshot.commit;
  }
  out["skipped"] = boost::json::array(done.skipped.begin(), done.skipped.end());
  return out;
}

void import_project(actors::Service& service, const store::ProjectsView& projects,
                    const Request& request, const Context& context, Respond respond) {
  const auto& id = context.params.at("id");
  const auto not_found = events::Error::not_found("no project " + id);
  if (!events::looks_like_id(id, events::kProjectIdPrefix)) {
    return respond(error_response(not_found, context.request_id));
  }
  auto project = projects.find(context.caller.account, id);
  if (!project) return respond(error_response(project.error(), context.request_id));
  if (!*project) return respond(error_response(not_found, context.request_id));

  actors::ImportRequest command;
  command.project_id = id;
  command.account = context.caller.account;
  command.at = events::now_millis();
  if (is_gzip(request.content_type)) {
    command.source = events::kImportArchive;
    command.archive = request.body;
  } else {
    auto body = JsonBody::parse(request.body);
    if (!body) return respond(error_response(body.error(), context.request_id));
    read_json_import(*body, **project, command);
    if (!body->errors().empty()) {
      return respond(error_response(body->error(), context.request_id));
    }
  }
  const auto at = command.at;
  service.import_project(
      std::move(command), [respond = std::move(respond), request_id = context.request_id, id,
                           at](events::Result<actors::ImportedSnapshot> imported) {
        if (!imported) return respond(error_response(imported.error(), request_id));
        respond(json_response(201, to_json(id, *imported, at)));
      });
}

}  // namespace

bool is_gzip(std::string_view content_type) {
  const auto media = lower_media_type(content_type);
  return media == "application/gzip" || media == "application/x-gzip";
}

void add_import_routes(Router& router, actors::Service& service,
                       const store::ProjectsView& projects) {
  router.add({"POST", "/v1/projects/{id}/import", std::string(events::kScopeProjectsWrite), true,
              [&service, &projects](const Request& request, const Context& context,
                                    Respond respond) {
                import_project(service, projects, request, context, std::move(respond));
              },
              /*accepts_gzip=*/true});
}

}  // namespace vouch::http
