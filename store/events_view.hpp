#pragma once

#include <optional>
#include <string>

#include "events/result.hpp"
#include "store/database.hpp"
#include "store/page.hpp"
#include "store/projection.hpp"

namespace vouch::store {

// Read model of the public events (project.*, test.*) per account, in log
// order, as GET /v1/events shows them: the audit trail of an account.
// Internal events (keys, accounts, delivery attempts) are not in it.
class EventsView : public Projection {
 public:
  explicit EventsView(Database& database) : database_(database) {}

  std::string_view name() const override { return "events"; }
  events::Status apply(const events::RecordedEvent& event, ViewWriter& writer) override;

  // Envelopes {id, type, created, data} (JSON texts), oldest first, after the
  // event `starting_after` when given (kInvalid when that names no event of
  // the account), only those of `type` when given.
  [[nodiscard]] events::Result<Page<std::string>> list(
      const std::string& account, const std::optional<std::string>& starting_after,
      const std::optional<std::string>& type, std::size_t limit) const;

 private:
  Database& database_;
};

}  // namespace vouch::store
