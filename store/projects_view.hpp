#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "events/project.hpp"
#include "store/database.hpp"
#include "store/owned_records.hpp"
#include "store/page.hpp"

namespace vouch::store {

// Read model of projects: one record per live project and, per account, an
// index in creation order for paging. Queries are thread-safe and read the
// committed state; they never touch the write path.
class ProjectsView : public OwnedView<events::Project> {
 public:
  // Keeps up to `kept_bytes` of records in memory (ReadMemo).
  explicit ProjectsView(Database& database, std::size_t kept_bytes = ReadMemoBudget{}.records);

  base::Status apply(const events::RecordedEvent& event, ViewWriter& writer) override;

  // The id of the project's latest imported snapshot; nullopt before the
  // first import. REQUIRES: the caller found the project with find().
  [[nodiscard]] base::Result<std::optional<std::string>> latest_snapshot(
      const std::string& id) const;

  // Whether `snapshot` was imported into project `id`.
  [[nodiscard]] base::Result<bool> has_snapshot(const std::string& id,
                                                const std::string& snapshot) const;

  // Oldest first, after the project `starting_after` when given. kInvalid
  // when `starting_after` names no project of the account.
  [[nodiscard]] base::Result<Page<events::Project>> list(
      const std::string& account, const std::optional<std::string>& starting_after,
      std::size_t limit) const;
};

}  // namespace vouch::store
