#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "store/access_view.hpp"
#include "store/database.hpp"
#include "store/deliveries_view.hpp"
#include "store/event_log.hpp"
#include "store/events_view.hpp"
#include "store/idempotency_view.hpp"
#include "store/projector.hpp"
#include "store/projects_view.hpp"
#include "store/runs_view.hpp"
#include "store/tests_view.hpp"
#include "store/webhooks_view.hpp"

namespace vouch::store {

// Every read model of the service, and the projector that keeps them current.
class ReadModels {
 public:
  // REQUIRES: `database` outlives this object.
  explicit ReadModels(Database& database, const ReadMemoBudget& memo = {});

  ProjectsView& projects() { return projects_; }
  const ProjectsView& projects() const { return projects_; }
  const AccessView& access() const { return access_; }
  const TestsView& tests() const { return tests_; }
  const RunsView& runs() const { return runs_; }
  const EventsView& events() const { return events_; }
  const WebhooksView& webhooks() const { return webhooks_; }
  const DeliveriesView& deliveries() const { return deliveries_; }
  const IdempotencyView& idempotency() const { return idempotency_; }
  Projector& projector() { return projector_; }
  // Bytes of answers the read models keep in memory (their ReadMemos).
  std::size_t memo_bytes() const;

 private:
  ProjectsView projects_;
  AccessView access_;
  TestsView tests_;
  RunsView runs_;
  WebhooksView webhooks_;
  DeliveriesView deliveries_;
  EventsView events_;
  IdempotencyView idempotency_;
  Projector projector_;
};

// Rebuilds every read model from the whole of `log` into a fresh database in
// `scratch` (created, and removed afterwards) and compares it with the read
// models stored in `database`. Returns one line per difference; empty when
// the stored read models equal the rebuild.
[[nodiscard]] base::Result<std::vector<std::string>> verify_read_models(
    Database& database, const EventLog& log, const std::filesystem::path& scratch);

}  // namespace vouch::store
