#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "events/sealed_secret.hpp"
#include "secrets/key_store.hpp"

// Webhook signing secrets at rest: each sealed (AES-256-GCM) under a data key
// of its own, made for it; the sealed form is bound to the webhook's id and
// the key's id, so that it opens for that webhook only. Thread-safe.
namespace vouch::secrets {

class WebhookSecrets {
 public:
  // REQUIRES: `keys` outlives this.
  explicit WebhookSecrets(KeyStore& keys) : keys_(keys) {}

  // `plain` sealed under a new data key of `webhook_id`.
  [[nodiscard]] base::Result<events::SealedSecret> seal(const std::string& webhook_id,
                                                        std::string_view plain);
  // The plain secret: kNotFound when its key was destroyed (the webhook was
  // deleted, or the secret rotated out), kInvalid when it does not
  // authenticate (another webhook's, altered bytes, another master key).
  [[nodiscard]] base::Result<std::string> open(const std::string& webhook_id,
                                               const events::SealedSecret& sealed) const;
  // Destroys the data keys `key_ids` (crypto-shredding: what they sealed can
  // no longer be opened). Synced; purge() later clears them from the files.
  [[nodiscard]] base::Status destroy(const std::vector<std::string>& key_ids);

  KeyStore& keys() const { return keys_; }

 private:
  KeyStore& keys_;
};

}  // namespace vouch::secrets
