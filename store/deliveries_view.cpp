#include "store/deliveries_view.hpp"

#include <rocksdb/db.h>
#include <rocksdb/snapshot.h>

#include "events/webhook.hpp"
#include "store/index_walk.hpp"
#include "store/key_coding.hpp"
#include "store/record_codec.hpp"

namespace vouch::store {

base::Status DeliveriesView::apply(const events::RecordedEvent& record, ViewWriter& writer) {
  if (record.event.type != events::kWebhookDeliveryAttemptedV1) return base::ok_status();
  auto decoded = events::decode_delivery_attempted(record.event.data);
  if (!decoded) return std::move(decoded).error();
  const auto& attempt = *decoded;

  // The entry holds the attempt's log position; the attempt itself is read
  // from the log (format 1 held a copy of it, see read_model_format.hpp).
  writer.put(keys::delivery(attempt.delivery_id), keys::encode_u64(record.position));
  // The webhook's log: the key alone (its position) says where the attempt is.
  writer.put(keys::webhook_delivery(attempt.webhook_id, record.position), "");

  // Per (webhook, event): the number of the latest attempt recorded (the
  // attempts of a delivery are numbered 1, 2, … in log order).
  writer.put(keys::delivery_attempts(attempt.webhook_id, attempt.event_id),
             keys::encode_u64(attempt.attempt));

  // A retry can be pending only after an automatic attempt failed, so a
  // delivery that succeeds at its first attempt (the usual case) writes no
  // tombstone for it.
  const auto pending = keys::pending_delivery(attempt.webhook_id, attempt.event_id);
  const bool first = attempt.attempt == 1 && !attempt.manual;
  if (attempt.success) {
    if (!first) writer.erase(pending);
  } else if (!attempt.manual) {
    if (attempt.next_attempt) {
      writer.put(pending, record.event.data);
    } else if (!first) {
      writer.erase(pending);
    }
  }

  const auto health = keys::webhook_failing_since(attempt.webhook_id);
  if (attempt.success) {
    if (writer.get(health)) writer.erase(health);
  } else if (!writer.get(health)) {
    writer.put(health, keys::encode_u64(static_cast<std::uint64_t>(attempt.at)));
  }
  return base::ok_status();
}

base::Result<events::DeliveryAttempted> DeliveriesView::attempt_at(
    std::uint64_t position, const rocksdb::ReadOptions& options) const {
  std::string bytes;
  const auto status =
      database_.db().Get(options, database_.events(), keys::event(position), &bytes);
  if (!status.ok()) {
    return base::Error::internal("no delivery attempt at log position " + std::to_string(position) +
                                 ": " + status.ToString());
  }
  auto record = decode_record(bytes);
  if (!record) return std::move(record).error();
  if (record->event.type != events::kWebhookDeliveryAttemptedV1) {
    return base::Error::internal("log position " + std::to_string(position) +
                                 " holds no delivery attempt");
  }
  return events::decode_delivery_attempted(record->event.data);
}

base::Result<std::optional<std::uint64_t>> DeliveriesView::position_of(
    const std::string& delivery_id, const rocksdb::ReadOptions& options) const {
  std::string entry;
  const auto status =
      database_.db().Get(options, database_.views(), keys::delivery(delivery_id), &entry);
  if (status.IsNotFound()) return std::optional<std::uint64_t>{};
  if (!status.ok()) return base::Error::internal(status.ToString());
  const auto position = keys::decode_u64(entry);
  if (!position) return base::Error::internal("corrupt delivery entry " + delivery_id);
  return std::optional<std::uint64_t>{*position};
}

base::Result<std::optional<events::DeliveryAttempted>> DeliveriesView::find(
    const std::string& delivery_id) const {
  const rocksdb::ReadOptions options;
  auto position = position_of(delivery_id, options);
  if (!position) return std::move(position).error();
  if (!*position) return std::optional<events::DeliveryAttempted>{};
  auto attempt = attempt_at(**position, options);
  if (!attempt) return std::move(attempt).error();
  return std::optional<events::DeliveryAttempted>{std::move(attempt).value()};
}

base::Result<Page<events::DeliveryAttempted>> DeliveriesView::list(
    const std::string& webhook_id, const std::optional<std::string>& starting_after,
    std::size_t limit) const {
  rocksdb::ManagedSnapshot snapshot(&database_.db());
  rocksdb::ReadOptions options;
  options.snapshot = snapshot.snapshot();
  const std::string prefix = keys::webhook_deliveries_prefix(webhook_id);
  std::string start = prefix + std::string(8, '\xff');
  if (starting_after) {
    auto position = position_of(*starting_after, options);
    if (!position) return std::move(position).error();
    std::string ignored;
    // The cursor must be an entry of this webhook's log.
    if (!*position || !database_.db()
                           .Get(options, database_.views(),
                                keys::webhook_delivery(webhook_id, **position), &ignored)
                           .ok()) {
      return base::Error::invalid("startingAfter names no delivery of this webhook",
                                  {{"startingAfter", "no delivery " + *starting_after}});
    }
    if (**position == 0) return Page<events::DeliveryAttempted>{};
    start = keys::webhook_delivery(webhook_id, **position - 1);
  }
  Page<events::DeliveryAttempted> page;
  std::unique_ptr<rocksdb::Iterator> it(database_.db().NewIterator(options, database_.views()));
  for (it->SeekForPrev(start); it->Valid() && it->key().starts_with(prefix); it->Prev()) {
    if (page.items.size() == limit) {
      page.has_more = true;
      break;
    }
    const auto position = keys::decode_u64(it->key().ToStringView().substr(prefix.size()));
    if (!position) return base::Error::internal("corrupt delivery-log key of " + webhook_id);
    auto attempt = attempt_at(*position, options);
    if (!attempt) return std::move(attempt).error();
    page.items.push_back(std::move(attempt).value());
  }
  if (!it->status().ok()) return base::Error::internal(it->status().ToString());
  return page;
}

base::Result<std::vector<events::DeliveryAttempted>> DeliveriesView::pending() const {
  std::vector<events::DeliveryAttempted> out;
  auto scanned =
      scan_prefix(database_, keys::pending_deliveries_prefix(),
                  [append = append_decoded(out, events::decode_delivery_attempted)](
                      std::string_view, std::string_view value) { return append(value); });
  if (!scanned) return std::move(scanned).error();
  return out;
}

base::Result<std::uint32_t> DeliveriesView::attempts(const std::string& webhook_id,
                                                     const std::string& event_id) const {
  std::string value;
  auto status = database_.db().Get(rocksdb::ReadOptions(), database_.views(),
                                   keys::delivery_attempts(webhook_id, event_id), &value);
  if (status.IsNotFound()) return std::uint32_t{0};
  if (!status.ok()) return base::Error::internal(status.ToString());
  return static_cast<std::uint32_t>(keys::decode_u64(value).value_or(0));
}

base::Result<std::optional<base::Millis>> DeliveriesView::failing_since(
    const std::string& webhook_id) const {
  return database_.read_view<base::Millis>(
      keys::webhook_failing_since(webhook_id), [](std::string_view value) {
        return static_cast<base::Millis>(keys::decode_u64(value).value_or(0));
      });
}

}  // namespace vouch::store
