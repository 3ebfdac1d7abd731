#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "events/generated_test.hpp"
#include "events/run.hpp"
#include "store/database.hpp"
#include "store/owned_records.hpp"
#include "store/page.hpp"

namespace vouch::store {

// Read model of generated tests: one record per test (from the acceptance of
// an asynchronous generation on), whose status follows its last run; per project, an index in
// generation order for paging; and each project's latest measured coverage (the "previous" of the
// next test.coverage.updated). Queries read committed state only.
class TestsView : public OwnedView<events::GeneratedTest> {
 public:
  // Keeps up to `kept_bytes` of records in memory (ReadMemo).
  explicit TestsView(Database& database, std::size_t kept_bytes = ReadMemoBudget{}.records);

  base::Status apply(const events::RecordedEvent& event, ViewWriter& writer) override;

  // The tests of one project, oldest first, after `starting_after` when
  // given (kInvalid when that names no test of the project).
  [[nodiscard]] base::Result<Page<events::GeneratedTest>> list(
      const std::string& account, const std::string& project_id,
      const std::optional<std::string>& starting_after, std::size_t limit) const;

  // Every test whose asynchronous generation has no recorded end (which a
  // restart ends as failed: "interrupted").
  [[nodiscard]] base::Result<std::vector<events::GeneratedTest>> generating() const;

  // The coverage of the project's latest completed run; nullopt before one.
  [[nodiscard]] base::Result<std::optional<events::Coverage>> latest_coverage(
      const std::string& project_id) const;
};

}  // namespace vouch::store
