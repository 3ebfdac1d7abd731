#pragma once

#include <boost/json/object.hpp>
#include <string>

// A secret as events and records keep it: encrypted under a data key of the
// key store (secrets/key_store.hpp), never in plain text. The plain secret
// comes back only through secrets::WebhookSecrets::open(), with the master
// key; once the data key is destroyed, nothing can.
namespace vouch::events {

struct SealedSecret {
  std::string key_id;  // the data key it is sealed under ("dk_…")
  std::string sealed;  // base64 of nonce, AES-256-GCM ciphertext and tag

  // No secret (e.g. a plain one of an old folder that was never migrated).
  bool empty() const { return key_id.empty(); }
  friend bool operator==(const SealedSecret&, const SealedSecret&) = default;
};

// Its stored form: {"key": "dk_…", "sealed": "<base64>"}.
boost::json::object sealed_secret_to_json(const SealedSecret& secret);
// Reads the object at `key`; throws json_access::CorruptRecord when it is
// missing or malformed.
SealedSecret sealed_secret_at(const boost::json::object& object, std::string_view key);

}  // namespace vouch::events
