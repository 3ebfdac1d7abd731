#pragma once

#include <cstddef>

#include "base/result.hpp"
#include "secrets/webhook_secrets.hpp"
#include "store/database.hpp"

// Data folders written before secrets were sealed hold webhook secrets in
// plain text in three places: WebhookCreated.v1 and WebhookSecretRotated.v1
// events, and the recorded first responses of idempotent creations and
// rotations (IdempotentResponseRecorded, in the log and its read model); and
// new API keys in the recorded first responses of idempotent POST /v1/keys.
// docs/decisions.md ("Webhook secrets at rest") says why they are rewritten
// in place rather than superseded by appended events.
namespace vouch::secrets {

struct MigrationReport {
  std::size_t events = 0;     // webhook events rewritten as version 2
  std::size_t responses = 0;  // recorded responses whose secret was cut out and sealed
  bool ran = false;           // false when the folder was migrated before
};

// Rewrites each of those records at its own key: the same position, stream,
// version, event id, account and time; the webhook events as version 2 with
// each secret sealed under a new data key, the responses with the secret cut
// out of the body and sealed beside it (an API key under a new data key of
// the idempotency stream, and only while the record answers retries). Then flushes and compacts the
// events, views and secrets column families to their last level, so that no file of the data folder
// still holds the plain text, and records that the folder is migrated (later calls return at once).
// REQUIRES: nothing reads or appends to the log meanwhile (start-up, before
// the read models catch up).
[[nodiscard]] base::Result<MigrationReport> seal_plain_secrets(store::Database& database,
                                                               WebhookSecrets& secrets);

// Flushes every column family, then compacts the events, views and secrets
// families to their last level: superseded values leave the files.
[[nodiscard]] base::Status compact_all(store::Database& database);

}  // namespace vouch::secrets
