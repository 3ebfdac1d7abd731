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

// Whether `content_type` names a gzip-compressed body.
bool is_gzip(std::string_view content_type);

}  // namespace vouch::http
