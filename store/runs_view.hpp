#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "events/run.hpp"
#include "store/database.hpp"
#include "store/owned_records.hpp"

namespace vouch::store {

// Read model of runs: one record per run, and an index of the runs still
// running (which a restart ends as interrupted).
class RunsView : public OwnedView<events::TestRun> {
 public:
  // Keeps up to `kept_bytes` of records in memory (ReadMemo).
  explicit RunsView(Database& database, std::size_t kept_bytes = ReadMemoBudget{}.records);

  base::Status apply(const events::RecordedEvent& event, ViewWriter& writer) override;

  // Every run whose end is not recorded.
  [[nodiscard]] base::Result<std::vector<events::TestRun>> running() const;
};

}  // namespace vouch::store
