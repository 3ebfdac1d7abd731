#include "store/webhooks_view.hpp"

#include <rocksdb/db.h>
#include <rocksdb/snapshot.h>

#include "events/overloaded.hpp"
#include "events/webhook.hpp"
#include "store/index_walk.hpp"
#include "store/key_coding.hpp"

namespace vouch::store {
namespace {

std::string record_key(std::string_view id) { return "webhooks/id/" + std::string(id); }
std::string position_key(std::string_view id) { return "webhooks/pos/" + std::string(id); }
std::string account_prefix(std::string_view account) {
  return keys::owner_index_prefix("webhooks/acct", account);
}
std::string account_key(std::string_view account, std::uint64_t position) {
  return keys::owner_index("webhooks/acct", account, position);
}

}  // namespace

events::Status WebhooksView::apply(const events::RecordedEvent& record, ViewWriter& writer) {
  if (!events::is_webhook_event(record.event.type)) return events::ok_status();
  auto decoded = events::decode_webhook_event(record.event.type, record.event.data);
  if (!decoded) return std::move(decoded).error();

  if (const auto* created = std::get_if<events::WebhookCreated>(&*decoded)) {
    const auto& webhook = created->webhook;
    writer.put(record_key(webhook.id), events::encode_webhook_record(webhook));
    writer.put(position_key(webhook.id), keys::encode_u64(record.position));
    writer.put(account_key(webhook.account, record.position), webhook.id);
    return events::ok_status();
  }
  const std::string id = events::webhook_id_of(*decoded);
  auto text = writer.get(record_key(id));
  if (!text) return events::ok_status();  // deleted before: nothing to fold into
  auto webhook = events::decode_webhook_record(*text);
  if (!webhook) return std::move(webhook).error();
  if (std::holds_alternative<events::WebhookDeleted>(*decoded)) {
    if (auto position = writer.get(position_key(id))) {
      writer.erase(account_key(webhook->account, keys::decode_u64(*position).value_or(0)));
    }
    writer.erase(record_key(id));
    writer.erase(position_key(id));
    return events::ok_status();
  }
  auto state = events::evolve(events::WebhookState{std::move(webhook).value(), false}, *decoded);
  writer.put(record_key(id), events::encode_webhook_record(*state.webhook));
  return events::ok_status();
}

WebhooksView::WebhooksView(Database& database)
    : database_(database),
      records_(database, {"webhook", record_key, position_key, events::decode_webhook_record,
                          [](const events::Webhook& record) -> const std::string& {
                            return record.account;
                          }}) {}

events::Result<std::optional<events::Webhook>> WebhooksView::find(const std::string& account,
                                                                  const std::string& id) const {
  return records_.find(account, id);
}

events::Result<Page<events::Webhook>> WebhooksView::list(
    const std::string& account, const std::optional<std::string>& starting_after,
    std::size_t limit) const {
  return records_.list(account,
                       {account_prefix(account),
                        [&](std::uint64_t position) { return account_key(account, position); },
                        "of this account",
                        {}},
                       starting_after, limit);
}

events::Result<std::vector<WebhookEntry>> WebhooksView::all_of(const std::string& account) const {
  const std::string prefix = account_prefix(account);
  std::vector<WebhookEntry> out;
  rocksdb::ManagedSnapshot snapshot(&database_.db());
  rocksdb::ReadOptions read_options;
  read_options.snapshot = snapshot.snapshot();
  std::unique_ptr<rocksdb::Iterator> it(
      database_.db().NewIterator(read_options, database_.views()));
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    std::string text;
    if (!database_.db()
             .Get(read_options, database_.views(), record_key(it->value().ToStringView()), &text)
             .ok()) {
      continue;
    }
    auto webhook = events::decode_webhook_record(text);
    if (!webhook) return std::move(webhook).error();
    const auto key = it->key().ToStringView();
    out.push_back(
        {std::move(webhook).value(), keys::decode_u64(key.substr(key.size() - 8)).value_or(0)});
  }
  if (!it->status().ok()) return events::Error::internal(it->status().ToString());
  return out;
}

}  // namespace vouch::store
