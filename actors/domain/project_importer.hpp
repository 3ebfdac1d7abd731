#pragma once

#include <functional>

#include "actors/domain/import_messages.hpp"
#include "actors/type_ids.hpp"
#include "process/child_process.hpp"
#include "store/snapshots.hpp"

namespace vouch::actors {

// Imports a snapshot: reads the files (checked and bounded as
// store::read_snapshot_archive says), stores them content-addressed, then
// records project.imported through the project's actor. Runs on a detached
// actor of its own (decompression, git and fsyncs block); `done` is called
// once, from that actor. kInvalid/kTooLarge for bad input, kNotFound for a
// missing project, kUnavailable when git fails or times out.
// REQUIRES: every pointer outlives the import.
void import_snapshot(caf::actor_system& system, const ImportSettings* settings,
                     process::ProcessHost* processes, store::SnapshotStore* snapshots,
                     project_registry_actor projects, ImportRequest request,
                     std::function<void(base::Result<ImportedSnapshot>)> done);

}  // namespace vouch::actors
