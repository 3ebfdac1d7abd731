#include "secrets/plain_secret_migration.hpp"

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <unordered_map>

#include "base/clock.hpp"
#include "base/ids.hpp"
#include "events/idempotency.hpp"
#include "events/json_access.hpp"
#include "events/webhook.hpp"
#include "secrets/compaction.hpp"
#include "store/record_codec.hpp"

namespace vouch::secrets {
namespace {

namespace ja = events::json_access;

constexpr std::string_view kMigratedKey = "plain-secrets-sealed";
constexpr std::string_view kSecretPrefix = "whsec_";

base::Error storage_error(const rocksdb::Status& status, std::string_view what) {
  return base::Error::internal("sealing plain webhook secrets: cannot " + std::string(what) + ": " +
                               status.ToString());
}

bool is_secret_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/' || c == '=' ||
         c == '_' || c == '-';
}

// The plain secrets met so far, and their sealed forms: a recorded response
// comes after the event that made its secret.
struct SealedFor {
  std::string webhook_id;
  events::SealedSecret secret;
};
using Sealed = std::unordered_map<std::string, SealedFor>;

base::Status seal_into(WebhookSecrets& secrets, Sealed& sealed, const std::string& webhook_id,
                       const std::string& plain, boost::json::object& data) {
  auto secret = secrets.seal(webhook_id, plain);
  if (!secret) return std::move(secret).error();
  data["secret"] = events::sealed_secret_to_json(*secret);
  sealed.emplace(plain, SealedFor{webhook_id, std::move(secret).value()});
  return base::ok_status();
}

// The record's data rewritten, or nullopt when it holds no plain secret.
// The API key a recorded response of POST /v1/keys shows (its "key"), if any.
std::optional<std::string> api_key_in(std::string_view body) {
  boost::system::error_code ec;
  const auto value = boost::json::parse(body, ec);
  if (ec || !value.is_object()) return std::nullopt;
  const auto* key = value.get_object().if_contains("key");
  if (!key || !key->is_string()) return std::nullopt;
  const std::string plain(key->get_string());
  if (!plain.starts_with(base::kApiKeyPrefix) || body.find(plain) == std::string_view::npos) {
    return std::nullopt;
  }
  return plain;
}

base::Result<std::optional<events::RecordedEvent>> migrate(events::RecordedEvent record,
                                                           WebhookSecrets& secrets, Sealed& sealed,
                                                           base::Millis now) {
  auto& event = record.event;
  const bool created = event.type == events::kWebhookCreatedV1;
  const bool rotated = event.type == events::kWebhookSecretRotatedV1;
  if (created || rotated) {
    return ja::read_stored<std::optional<events::RecordedEvent>>(
        event.data, event.type,
        [&](boost::json::object data) -> base::Result<std::optional<events::RecordedEvent>> {
          const auto id = ja::string_at(data, "id");
          const auto plain = ja::string_at(data, "secret");
          data.erase("secret");
          data.erase("previousSecret");
          if (created) data.erase("previousSecretUntil");
          auto done = seal_into(secrets, sealed, id, plain, data);
          if (!done) return std::move(done).error();
          event.type = created ? events::kWebhookCreatedV2 : events::kWebhookSecretRotatedV2;
          event.data = boost::json::serialize(data);
          return std::optional<events::RecordedEvent>(std::move(record));
        });
  }
  if (event.type != events::kIdempotentResponseRecordedV1)
    return std::optional<events::RecordedEvent>();
  auto recorded = events::decode_idempotent_response(event.data);
  if (!recorded) return std::move(recorded).error();
  auto& response = recorded->response;
  if (response.secret_at) return std::optional<events::RecordedEvent>();  // already sealed
  if (auto start = response.body.find(kSecretPrefix); start != std::string::npos) {
    auto end = start;
    while (end < response.body.size() && is_secret_char(response.body[end])) ++end;
    const auto plain = response.body.substr(start, end - start);
    response.body.erase(start, end - start);
    response.secret_at = start;
    // A secret no event made (not expected) is cut out and not kept.
    if (auto found = sealed.find(plain); found != sealed.end()) {
      response.secret_of = found->second.webhook_id;
      response.secret = found->second.secret;
    }
  } else if (auto api_key = api_key_in(response.body)) {
    const auto start = response.body.find(*api_key);
    response.body.erase(start, api_key->size());
    response.secret_at = start;
    response.secret_of = record.stream;
    // Kept (sealed under a key of the stream's own) only while it answers retries.
    if (events::answers_retries(response.at, now)) {
      auto secret = secrets.seal(record.stream, *api_key);
      if (!secret) return std::move(secret).error();
      response.secret = std::move(secret).value();
    }
  } else {
    return std::optional<events::RecordedEvent>();
  }
  auto encoded = events::encode(*recorded);
  event.type = encoded.type;
  event.data = std::move(encoded.data);
  return std::optional<events::RecordedEvent>(std::move(record));
}

}  // namespace

base::Status compact_all(store::Database& database) {
  return flush_and_compact(database, {database.events(), database.views(), database.secrets()},
                           "sealing plain webhook secrets");
}

base::Result<MigrationReport> seal_plain_secrets(store::Database& database,
                                                 WebhookSecrets& secrets) {
  auto& db = database.db();
  std::string flag;
  auto status = db.Get(rocksdb::ReadOptions(), database.secrets(), kMigratedKey, &flag);
  if (status.ok()) return MigrationReport{};
  if (!status.IsNotFound()) return storage_error(status, "read the migration mark");

  MigrationReport report;
  report.ran = true;
  const auto now = base::now_millis();
  Sealed sealed;
  rocksdb::WriteBatch batch;
  std::unique_ptr<rocksdb::Iterator> it(db.NewIterator(rocksdb::ReadOptions(), database.events()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const auto bytes = it->value().ToStringView();
    if (bytes.find(kSecretPrefix) == std::string_view::npos &&
        bytes.find(base::kApiKeyPrefix) == std::string_view::npos) {
      continue;
    }
    auto record = store::decode_record(bytes);
    if (!record) return std::move(record).error();
    const auto old_data = record->event.data;
    auto migrated = migrate(std::move(record).value(), secrets, sealed, now);
    if (!migrated) return std::move(migrated).error();
    if (!*migrated) continue;
    const auto& rewritten = **migrated;
    batch.Put(database.events(), it->key(), store::encode_record(rewritten));
    if (rewritten.event.type == events::kIdempotentResponseRecordedV1) {
      ++report.responses;
      // The read model keeps the data of the stream's latest response.
      const auto view_key = "idempotency/" + rewritten.stream;
      std::string view;
      status = db.Get(rocksdb::ReadOptions(), database.views(), view_key, &view);
      if (status.ok() && view == old_data) {
        batch.Put(database.views(), view_key, rewritten.event.data);
      } else if (!status.ok() && !status.IsNotFound()) {
        return storage_error(status, "read the idempotency read model");
      }
    } else {
      ++report.events;
    }
  }
  if (!it->status().ok()) return storage_error(it->status(), "read the log");
  it.reset();
  batch.Put(database.secrets(), kMigratedKey, "1");
  rocksdb::WriteOptions synced;
  synced.sync = true;
  if (auto written = database.write(synced, batch); !written) return std::move(written).error();
  if (report.events + report.responses > 0) {
    if (auto compacted = compact_all(database); !compacted) return std::move(compacted).error();
  }
  return report;
}

}  // namespace vouch::secrets
