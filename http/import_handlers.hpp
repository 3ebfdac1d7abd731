#pragma once

#include "actors/service.hpp"
#include "http/router.hpp"
#include "store/projects_view.hpp"

namespace vouch::http {

// POST /v1/projects/{id}/import: a snapshot of source files from
//   {"files": [{path, content}]}            an upload,
//   a .tar.gz body (Content-Type: application/gzip),
//   {"git": {"ref": "main"}}                the project's repository at a ref.
// Answers 201 {projectId, snapshotId, files, bytes, source, ref, commit,
// skipped}. REQUIRES: both outlive the router.
void add_import_routes(Router& router, actors::Service& service,
                       const store::ProjectsView& projects);

// The files generation takes from a snapshot of project `project_id`
// (`snapshot_id`, or the latest import): its JavaScript and TypeScript
// sources, declarations and JSON files, those under one of `prefixes` when
// given. kInvalid (naming `files` or `snapshotId`) when there is none, or
// more than generation takes at once.
// REQUIRES: the caller found the project.
[[nodiscard]] base::Result<std::vector<events::SourceFile>> snapshot_sources(
    const actors::Service& service, const store::ProjectsView& projects,
    const std::string& project_id, const std::optional<std::string>& snapshot_id,
    const std::vector<std::string>& prefixes);

// Whether a request is an upload to POST /v1/projects/{id}/import, which
// may send a body up to the snapshot limit (ServerOptions::large_body).
bool is_import_upload(std::string_view method, std::string_view target);

// Whether `content_type` names a gzip-compressed body.
bool is_gzip(std::string_view content_type);

}  // namespace vouch::http
