#include "secrets/webhook_secrets.hpp"

#include "events/webhook_signature.hpp"
#include "secrets/aead.hpp"

namespace vouch::secrets {

// The label of a webhook secret's binding (aead.hpp); its bytes are in every sealed secret.
constexpr std::string_view kSecretBinding = "vouch.webhook-secret.v1";

base::Result<events::SealedSecret> WebhookSecrets::seal(const std::string& webhook_id,
                                                        std::string_view plain) {
  auto key = keys_.create(webhook_id);
  if (!key) return std::move(key).error();
  auto sealed =
      secrets::seal(key->second, plain, binding(kSecretBinding, {webhook_id, key->first}));
  if (!sealed) return std::move(sealed).error();
  return events::SealedSecret{std::move(key->first), events::base64_encode(*sealed)};
}

base::Result<std::string> WebhookSecrets::open(const std::string& webhook_id,
                                               const events::SealedSecret& sealed) const {
  if (sealed.empty()) {
    return base::Error::not_found("webhook " + webhook_id +
                                  " has no sealed secret (written before secrets were sealed, "
                                  "and not migrated)");
  }
  auto key = keys_.find(sealed.key_id, webhook_id);
  if (!key) return std::move(key).error();
  auto bytes = events::base64_decode(sealed.sealed);
  if (!bytes) return base::Error::invalid("the sealed secret of " + webhook_id + " is not base64");
  return secrets::open(*key, *bytes, binding(kSecretBinding, {webhook_id, sealed.key_id}));
}

base::Status WebhookSecrets::destroy(const std::vector<std::string>& key_ids) {
  return keys_.destroy(key_ids);
}

}  // namespace vouch::secrets
