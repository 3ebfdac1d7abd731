#pragma once

#include <optional>
#include <string>

#include "events/generated_test.hpp"
#include "events/result.hpp"
#include "events/test_run.hpp"
#include "store/database.hpp"
#include "store/owned_records.hpp"
#include "store/page.hpp"

namespace vouch::store {

// Read model of generated tests: one record per test, whose status follows
// its last run; per project, an index in generation order for paging; and
// each project's latest measured coverage (the "previous" of the next
// test.coverage.updated). Queries read committed state only.
class TestsView : public OwnedView<events::GeneratedTest> {
 public:
  // Keeps up to `kept_bytes` of records in memory (ReadMemo).
  explicit TestsView(Database& database, std::size_t kept_bytes = ReadMemoBudget{}.records);

  events::Status apply(const events::RecordedEvent& event, ViewWriter& writer) override;

  // The tests of one project, oldest first, after `starting_after` when
  // given (kInvalid when that names no test of the project).
  [[nodiscard]] events::Result<Page<events::GeneratedTest>> list(
      const std::string& account, const std::string& project_id,
      const std::optional<std::string>& starting_after, std::size_t limit) const;

  // The coverage of the project's latest completed run; nullopt before one.
  [[nodiscard]] events::Result<std::optional<events::Coverage>> latest_coverage(
      const std::string& project_id) const;
};

}  // namespace vouch::store
