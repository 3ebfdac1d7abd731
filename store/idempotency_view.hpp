#pragma once

#include <optional>
#include <string>

#include "base/result.hpp"
#include "events/idempotency.hpp"
#include "store/database.hpp"
#include "store/projection.hpp"

namespace vouch::store {

// Read model of recorded idempotent responses: the latest response recorded
// for each idempotency stream (an account's key). Entries past the window
// stay; find() callers judge their age (events::answers_retries).
class IdempotencyView : public StoredView {
 public:
  explicit IdempotencyView(Database& database) : StoredView(database, "idempotency") {}

  base::Status apply(const events::RecordedEvent& event, ViewWriter& writer) override;

  // The latest response recorded for `stream` (events::idempotency_stream),
  // nullopt when none.
  [[nodiscard]] base::Result<std::optional<events::IdempotentResponse>> find(
      const std::string& stream) const;
};

}  // namespace vouch::store
