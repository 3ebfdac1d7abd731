#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/clock.hpp"
#include "base/result.hpp"
#include "events/webhook_delivery.hpp"
#include "store/database.hpp"
#include "store/page.hpp"
#include "store/projection.hpp"

namespace rocksdb {
struct ReadOptions;
}  // namespace rocksdb

namespace vouch::store {

// Read model of webhook deliveries, folded from WebhookDeliveryAttempted:
//   - the delivery log: one entry per attempt, per webhook newest first,
//     each pointing at the attempt's event in the log (not a copy of it);
//   - the pending retries: per (webhook, event), the last automatic attempt
//     while it names a next one — what a restart reschedules;
//   - per webhook, since when it has failed without a success in between;
//   - per (webhook, event), the number of its latest attempt: after a restart
//     the dispatcher hands events over again, and those already attempted
//     are skipped (their retries are the pending ones).
// Queries are thread-safe and read committed state.
class DeliveriesView : public StoredView {
 public:
  explicit DeliveriesView(Database& database) : StoredView(database, "deliveries") {}

  base::Status apply(const events::RecordedEvent& event, ViewWriter& writer) override;

  [[nodiscard]] base::Result<std::optional<events::DeliveryAttempted>> find(
      const std::string& delivery_id) const;

  // Newest first, after the entry `starting_after` when given (kInvalid when
  // that names no entry of the webhook).
  [[nodiscard]] base::Result<Page<events::DeliveryAttempted>> list(
      const std::string& webhook_id, const std::optional<std::string>& starting_after,
      std::size_t limit) const;

  // Every pending retry, in (webhook, event) order.
  [[nodiscard]] base::Result<std::vector<events::DeliveryAttempted>> pending() const;

  // The number of the latest attempt of `event_id` to `webhook_id` recorded
  // (attempts are numbered 1, 2, …); 0 when none is.
  [[nodiscard]] base::Result<std::uint32_t> attempts(const std::string& webhook_id,
                                                     const std::string& event_id) const;

  // When the webhook's current run of failures began; nullopt when its last
  // attempt succeeded or it has none.
  [[nodiscard]] base::Result<std::optional<base::Millis>> failing_since(
      const std::string& webhook_id) const;

 private:
  // The attempt recorded at `position` in the log.
  base::Result<events::DeliveryAttempted> attempt_at(std::uint64_t position,
                                                     const rocksdb::ReadOptions& options) const;
  // The log position of a delivery's attempt; nullopt when there is none.
  base::Result<std::optional<std::uint64_t>> position_of(const std::string& delivery_id,
                                                         const rocksdb::ReadOptions& options) const;
};

}  // namespace vouch::store
