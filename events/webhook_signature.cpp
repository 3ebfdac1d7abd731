#include "events/webhook_signature.hpp"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include <boost/algorithm/hex.hpp>
#include <initializer_list>
#include <stdexcept>

namespace vouch::events {
namespace {

// One HMAC-SHA256 context per thread, set up once: HMAC() fetches the
// algorithm and the digest from the provider on every call, which cost more
// than the hashing of a delivery body. Re-keying keeps the digest.
class HmacContext {
 public:
  HmacContext() {
    mac_ = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
    if (mac_) ctx_ = EVP_MAC_CTX_new(mac_);
    char digest[] = "SHA256";
    const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string("digest", digest, 0),
                                 OSSL_PARAM_construct_end()};
    if (!ctx_ || !EVP_MAC_CTX_set_params(ctx_, params)) {
      throw std::runtime_error("OpenSSL HMAC-SHA256 is not available");
    }
  }
  ~HmacContext() {
    EVP_MAC_CTX_free(ctx_);
    EVP_MAC_free(mac_);
  }
  HmacContext(const HmacContext&) = delete;
  HmacContext& operator=(const HmacContext&) = delete;

  // The MAC of the concatenation of `parts`, fed one after the other.
  std::string sign(std::string_view key, std::initializer_list<std::string_view> parts) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    std::size_t length = 0;
    // An empty key still needs a non-null pointer to re-key the context.
    static const unsigned char kNoKey = 0;
    const auto* key_bytes =
        key.empty() ? &kNoKey : reinterpret_cast<const unsigned char*>(key.data());
    bool ok = EVP_MAC_init(ctx_, key_bytes, key.size(), nullptr) == 1;
    for (const auto part : parts) {
      ok = ok && EVP_MAC_update(ctx_, reinterpret_cast<const unsigned char*>(part.data()),
                                part.size()) == 1;
    }
    if (!ok || !EVP_MAC_final(ctx_, digest, &length, sizeof digest)) {
      throw std::runtime_error("OpenSSL HMAC-SHA256 failed");
    }
    return std::string(reinterpret_cast<const char*>(digest), length);
  }

 private:
  EVP_MAC* mac_ = nullptr;
  EVP_MAC_CTX* ctx_ = nullptr;
};

std::string hmac_sha256(std::string_view key, std::initializer_list<std::string_view> parts) {
  thread_local HmacContext context;
  return context.sign(key, parts);
}

}  // namespace

std::string base64_encode(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3), '\0');
  const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                      reinterpret_cast<const unsigned char*>(bytes.data()),
                                      static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(written));
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out(3 * text.size() / 4, '\0');
  const int written = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                      reinterpret_cast<const unsigned char*>(text.data()),
                                      static_cast<int>(text.size()));
  if (written < 0) return std::nullopt;
  // EVP_DecodeBlock counts the padding as zero bytes: drop them.
  std::size_t size = static_cast<std::size_t>(written);
  if (!text.empty() && text.back() == '=') --size;
  if (text.size() >= 2 && text[text.size() - 2] == '=') --size;
  out.resize(size);
  return out;
}

std::string new_webhook_secret() {
  unsigned char bytes[24];
  if (RAND_bytes(bytes, sizeof bytes) != 1) throw std::runtime_error("OpenSSL RAND_bytes failed");
  return std::string(kWebhookSecretPrefix) +
         base64_encode(std::string_view(reinterpret_cast<const char*>(bytes), sizeof bytes));
}

std::string hmac_sha256_hex(std::string_view key, std::string_view message) {
  return boost::algorithm::hex_lower(hmac_sha256(key, {message}));
}

std::string service_signature(std::string_view secret, std::int64_t timestamp,
                              std::string_view body) {
  const std::string stamp = std::to_string(timestamp);
  return boost::algorithm::hex_lower(hmac_sha256(secret, {stamp, ".", body}));
}

std::optional<std::string> standard_signature(std::string_view secret, std::string_view message_id,
                                              std::int64_t timestamp, std::string_view body) {
  if (secret.substr(0, kWebhookSecretPrefix.size()) == kWebhookSecretPrefix) {
    secret.remove_prefix(kWebhookSecretPrefix.size());
  }
  const auto key = base64_decode(secret);
  if (!key) return std::nullopt;
  const std::string stamp = std::to_string(timestamp);
  return "v1," + base64_encode(hmac_sha256(*key, {message_id, ".", stamp, ".", body}));
}

}  // namespace vouch::events
