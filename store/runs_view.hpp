#pragma once

#include <optional>
#include <string>
#include <vector>

#include "events/result.hpp"
#include "events/test_run.hpp"
#include "store/database.hpp"
#include "store/owned_records.hpp"
#include "store/projection.hpp"

namespace vouch::store {

// Read model of runs: one record per run, and an index of the runs still
// running (which a restart ends as interrupted).
class RunsView : public Projection {
 public:
  explicit RunsView(Database& database);

  std::string_view name() const override { return "runs"; }
  events::Status apply(const events::RecordedEvent& event, ViewWriter& writer) override;

  // nullopt when missing or owned by another account.
  [[nodiscard]] events::Result<std::optional<events::TestRun>> find(const std::string& account,
                                                                    const std::string& id) const;

  // Every run whose end is not recorded.
  [[nodiscard]] events::Result<std::vector<events::TestRun>> running() const;

 private:
  Database& database_;
  OwnedRecords<events::TestRun> records_;
};

}  // namespace vouch::store
