#pragma once

#include <optional>
#include <string>

#include "base/result.hpp"
#include "store/database.hpp"
#include "store/page.hpp"
#include "store/projection.hpp"

namespace vouch::store {

// Read model of the public events (project.*, test.*) per account, in log
// order, as GET /v1/events shows them: the audit trail of an account. Each
// event is stored in its public form (events/public_types.hpp), indexed per
// account and per (account, project). Internal events (keys, accounts,
// delivery attempts) are not in it.
class EventsView : public StoredView {
 public:
  explicit EventsView(Database& database) : StoredView(database, "events") {}

  base::Status apply(const events::RecordedEvent& event, ViewWriter& writer) override;

  struct Filter {
    std::optional<std::string> starting_after;  // an event id of the account
    std::optional<std::string> type;            // a public type or pattern ("test.*", "*")
    std::optional<std::string> project_id;
  };

  // Envelopes {id, type, version, created, data} (JSON texts), oldest first,
  // after the event `starting_after` when given (kInvalid when that names no
  // event of the account), only those matching `type` and of `project_id`.
  [[nodiscard]] base::Result<Page<std::string>> list(const std::string& account,
                                                     const Filter& filter, std::size_t limit) const;
};

}  // namespace vouch::store
