#include "store/access_view.hpp"

#include <rocksdb/db.h>

#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>

#include "base/overloaded.hpp"
#include "events/access.hpp"
#include "events/json_access.hpp"
#include "store/key_coding.hpp"

namespace vouch::store {
namespace {

namespace ja = events::json_access;

std::string encode_key_record(const KeyRecord& record, const std::string& hash) {
  boost::json::object object{{"keyId", record.key_id},
                             {"account", record.account},
                             {"name", record.name},
                             {"scopes", ja::strings_to_json(record.scopes)},
                             {"hash", hash},
                             {"created", record.created},
                             {"revoked", record.revoked}};
  return boost::json::serialize(object);
}

struct StoredKey {
  KeyRecord record;
  std::string hash;
};

base::Result<StoredKey> decode_key_record(std::string_view text) {
  return ja::read_stored<StoredKey>(
      text, "key record", [&](const boost::json::object& object) -> base::Result<StoredKey> {
        StoredKey stored;
        stored.record.key_id = ja::string_at(object, "keyId");
        stored.record.account = ja::string_at(object, "account");
        stored.record.name = ja::string_at(object, "name");
        stored.record.created = ja::int_at(object, "created");
        const auto* revoked = object.if_contains("revoked");
        stored.record.revoked = revoked && revoked->is_bool() && revoked->get_bool();
        stored.record.scopes = ja::strings_at(object, "scopes");
        stored.hash = ja::string_at(object, "hash");
        return stored;
      });
}

}  // namespace

base::Status AccessView::apply(const events::RecordedEvent& record, ViewWriter& writer) {
  const auto& type = record.event.type;
  if (events::is_account_event(type) || events::is_api_key_event(type)) changed_ = true;
  if (events::is_account_event(type)) {
    auto decoded = events::decode_account_event(type, record.event.data);
    if (!decoded) return std::move(decoded).error();
    std::visit(
        base::Overloaded{
            [&](const events::AccountOpened& opened) {
              writer.put(keys::access_account(opened.account), events::to_string(opened.plan));
            },
            [&](const events::AccountPlanChanged& changed) {
              writer.put(keys::access_account(changed.account), events::to_string(changed.plan));
            },
        },
        *decoded);
    return base::ok_status();
  }
  if (!events::is_api_key_event(type)) return base::ok_status();

  auto decoded = events::decode_api_key_event(type, record.event.data);
  if (!decoded) return std::move(decoded).error();
  if (const auto* issued = std::get_if<events::ApiKeyIssued>(&*decoded)) {
    KeyRecord key{issued->key_id, issued->account, issued->name, issued->scopes, issued->at, false};
    writer.put(keys::access_key(issued->key_id), encode_key_record(key, issued->hash));
    writer.put(keys::access_key_by_hash(issued->hash), issued->key_id);
    return base::ok_status();
  }
  const auto& revoked = std::get<events::ApiKeyRevoked>(*decoded);
  auto text = writer.get(keys::access_key(revoked.key_id));
  if (!text) return base::ok_status();
  auto stored = decode_key_record(*text);
  if (!stored) return std::move(stored).error();
  stored->record.revoked = true;
  writer.put(keys::access_key(revoked.key_id), encode_key_record(stored->record, stored->hash));
  writer.erase(keys::access_key_by_hash(stored->hash));
  return base::ok_status();
}

void AccessView::committed() {
  if (!changed_) return;
  changed_ = false;
  grants_.drop();
}

base::Result<std::optional<KeyGrant>> AccessView::find_by_hash(const std::string& hash) const {
  return grants_.find(
      hash, [&] { return read_grant(hash); },
      [](const std::optional<KeyGrant>& grant) {
        std::size_t bytes = sizeof(KeyGrant) + grant->key_id.size() + grant->account.size();
        for (const auto& scope : grant->scopes) bytes += scope.size();
        return bytes;
      });
}

base::Result<std::optional<KeyGrant>> AccessView::read_grant(const std::string& hash) const {
  auto key_id = database_.read_view(keys::access_key_by_hash(hash));
  if (!key_id) return std::move(key_id).error();
  if (!*key_id) return std::optional<KeyGrant>{};
  auto key = find_key(**key_id);
  if (!key) return std::move(key).error();
  if (!*key || (*key)->revoked) return std::optional<KeyGrant>{};
  auto plan = plan_of((*key)->account);
  if (!plan) return std::move(plan).error();
  return std::optional<KeyGrant>{KeyGrant{(*key)->key_id, (*key)->account,
                                          plan->value_or(events::Plan::kFree), (*key)->scopes}};
}

base::Result<std::optional<KeyRecord>> AccessView::find_key(const std::string& key_id) const {
  return database_.read_view<KeyRecord>(keys::access_key(key_id),
                                        [](std::string_view text) -> base::Result<KeyRecord> {
                                          auto stored = decode_key_record(text);
                                          if (!stored) return std::move(stored).error();
                                          return std::move(stored->record);
                                        });
}

base::Result<std::optional<events::Plan>> AccessView::plan_of(const std::string& account) const {
  auto text = database_.read_view(keys::access_account(account));
  if (!text) return std::move(text).error();
  if (!*text) return std::optional<events::Plan>{};
  return events::parse_plan(**text);
}

}  // namespace vouch::store
