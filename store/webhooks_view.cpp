#include "store/webhooks_view.hpp"

#include <rocksdb/db.h>
#include <rocksdb/snapshot.h>

#include "base/overloaded.hpp"
#include "events/webhook.hpp"
#include "store/index_walk.hpp"
#include "store/key_coding.hpp"

namespace vouch::store {
namespace {}  // namespace

base::Status WebhooksView::apply(const events::RecordedEvent& record, ViewWriter& writer) {
  if (!events::is_webhook_event(record.event.type)) return base::ok_status();
  auto decoded = events::decode_webhook_event(record.event.type, record.event.data);
  if (!decoded) return std::move(decoded).error();

  if (const auto* created = std::get_if<events::WebhookCreated>(&*decoded)) {
    const auto& webhook = created->webhook;
    records_.insert(writer, webhook.id, events::encode_webhook_record(webhook), record.position,
                    "acct", webhook.account);
    return base::ok_status();
  }
  const std::string id = events::webhook_id_of(*decoded);
  auto text = writer.get(records_.record_key(id));
  if (!text) return base::ok_status();  // deleted before: nothing to fold into
  auto webhook = events::decode_webhook_record(*text);
  if (!webhook) return std::move(webhook).error();
  if (std::holds_alternative<events::WebhookDeleted>(*decoded)) {
    records_.erase(writer, id, "acct");
    return base::ok_status();
  }
  auto state = events::evolve(events::WebhookState{std::move(webhook).value(), false}, *decoded);
  records_.put(writer, id, events::encode_webhook_record(*state.webhook));
  return base::ok_status();
}

WebhooksView::WebhooksView(Database& database, std::size_t kept_bytes)
    : OwnedView(database, "webhooks", "webhook", events::decode_webhook_record, kept_bytes) {}

base::Result<Page<events::Webhook>> WebhooksView::list(
    const std::string& account, const std::optional<std::string>& starting_after,
    std::size_t limit) const {
  return records_.list(account, records_.index("acct", account, "of this account"), starting_after,
                       limit);
}

base::Result<std::vector<WebhookEntry>> WebhooksView::all_of(const std::string& account) const {
  const std::string prefix = records_.index("acct", account, "").prefix;
  std::vector<WebhookEntry> out;
  rocksdb::ManagedSnapshot snapshot(&database_.db());
  rocksdb::ReadOptions read_options;
  read_options.snapshot = snapshot.snapshot();
  std::unique_ptr<rocksdb::Iterator> it(
      database_.db().NewIterator(read_options, database_.views()));
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    std::string text;
    if (!database_.db()
             .Get(read_options, database_.views(), records_.record_key(it->value().ToStringView()),
                  &text)
             .ok()) {
      continue;
    }
    auto webhook = events::decode_webhook_record(text);
    if (!webhook) return std::move(webhook).error();
    const auto key = it->key().ToStringView();
    out.push_back(
        {std::move(webhook).value(), keys::decode_u64(key.substr(key.size() - 8)).value_or(0)});
  }
  if (!it->status().ok()) return base::Error::internal(it->status().ToString());
  return out;
}

}  // namespace vouch::store
