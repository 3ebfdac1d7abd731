#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "events/webhook.hpp"
#include "store/database.hpp"
#include "store/owned_records.hpp"
#include "store/page.hpp"

namespace vouch::store {

// A webhook as the read model keeps it (no secrets), with the log position of
// its creation: it receives only events recorded after it.
struct WebhookEntry {
  events::Webhook webhook;
  std::uint64_t created_position = 0;
};

// Read model of webhooks: one record per live webhook and, per account, an
// index in creation order. Queries are thread-safe and read committed state.
class WebhooksView : public OwnedView<events::Webhook> {
 public:
  // Keeps up to `kept_bytes` of records in memory (ReadMemo).
  explicit WebhooksView(Database& database, std::size_t kept_bytes = ReadMemoBudget{}.records);

  base::Status apply(const events::RecordedEvent& event, ViewWriter& writer) override;

  // Oldest first, after `starting_after` when given (kInvalid when that names
  // no webhook of the account).
  [[nodiscard]] base::Result<Page<events::Webhook>> list(
      const std::string& account, const std::optional<std::string>& starting_after,
      std::size_t limit) const;

  // Every live webhook of `account` (the dispatcher's fan-out).
  [[nodiscard]] base::Result<std::vector<WebhookEntry>> all_of(const std::string& account) const;
};

}  // namespace vouch::store
