#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// How deliveries are signed (docs/openapi.json, webhooks), with OpenSSL's HMAC and base64.
namespace vouch::events {

inline constexpr std::string_view kWebhookSecretPrefix = "whsec_";

// "whsec_" + base64 of 24 random bytes (192 bits).
std::string new_webhook_secret();

// Lowercase hex HMAC-SHA256 of `message` keyed with `key`.
std::string hmac_sha256_hex(std::string_view key, std::string_view message);

// x-service-signature: hex HMAC-SHA256 keyed with the whole secret string
// over "<timestamp>.<body>" (the contract, §5).
std::string service_signature(std::string_view secret, std::int64_t timestamp,
                              std::string_view body);

// One Standard Webhooks signature, "v1,<base64 HMAC-SHA256>" over
// "<id>.<timestamp>.<body>", keyed with the base64-decoded part of the secret
// after "whsec_". nullopt when that part is not valid base64.
std::optional<std::string> standard_signature(std::string_view secret, std::string_view message_id,
                                              std::int64_t timestamp, std::string_view body);

std::string base64_encode(std::string_view bytes);
// nullopt for text that is not padded base64.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace vouch::events
