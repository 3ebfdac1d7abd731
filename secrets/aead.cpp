#include "secrets/aead.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <memory>

namespace vouch::secrets {
namespace {

using CipherContext = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

CipherContext new_context() { return {EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free}; }

const unsigned char* bytes(std::string_view text) {
  return reinterpret_cast<const unsigned char*>(text.data());
}
unsigned char* bytes(std::string& text) { return reinterpret_cast<unsigned char*>(text.data()); }

}  // namespace

Key::~Key() { OPENSSL_cleanse(bytes_.data(), bytes_.size()); }

base::Result<Key> Key::random() {
  std::array<unsigned char, kKeyBytes> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
    return base::Error::internal("OpenSSL's random generator failed");
  }
  Key key(bytes);
  OPENSSL_cleanse(bytes.data(), bytes.size());
  return key;
}

base::Result<Key> Key::from_bytes(std::string_view text) {
  if (text.size() != kKeyBytes) {
    return base::Error::invalid("a key is " + std::to_string(kKeyBytes) + " bytes, not " +
                                std::to_string(text.size()));
  }
  std::array<unsigned char, kKeyBytes> bytes{};
  std::copy(text.begin(), text.end(), bytes.begin());
  Key key(bytes);
  OPENSSL_cleanse(bytes.data(), bytes.size());
  return key;
}

base::Result<std::string> seal(const Key& key, std::string_view plain, std::string_view aad) {
  std::string out(kNonceBytes + plain.size() + kTagBytes, '\0');
  auto* nonce = bytes(out);
  auto* ciphertext = nonce + kNonceBytes;
  if (RAND_bytes(nonce, static_cast<int>(kNonceBytes)) != 1) {
    return base::Error::internal("OpenSSL's random generator failed");
  }
  auto context = new_context();
  int length = 0;
  if (!context ||
      EVP_EncryptInit_ex(context.get(), EVP_aes_256_gcm(), nullptr, key.data(), nonce) != 1 ||
      EVP_EncryptUpdate(context.get(), nullptr, &length, bytes(aad),
                        static_cast<int>(aad.size())) != 1 ||
      EVP_EncryptUpdate(context.get(), ciphertext, &length, bytes(plain),
                        static_cast<int>(plain.size())) != 1 ||
      EVP_EncryptFinal_ex(context.get(), ciphertext + length, &length) != 1 ||
      EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(kTagBytes),
                          ciphertext + plain.size()) != 1) {
    return base::Error::internal("AES-256-GCM encryption failed in OpenSSL");
  }
  return out;
}

base::Result<std::string> open(const Key& key, std::string_view sealed, std::string_view aad) {
  if (sealed.size() < kNonceBytes + kTagBytes) {
    return base::Error::invalid("the sealed value is too short to be one");
  }
  const auto* nonce = bytes(sealed);
  const std::string_view ciphertext =
      sealed.substr(kNonceBytes, sealed.size() - kNonceBytes - kTagBytes);
  std::string tag(sealed.substr(sealed.size() - kTagBytes));
  std::string plain(ciphertext.size(), '\0');
  auto context = new_context();
  int length = 0;
  if (!context ||
      EVP_DecryptInit_ex(context.get(), EVP_aes_256_gcm(), nullptr, key.data(), nonce) != 1 ||
      EVP_DecryptUpdate(context.get(), nullptr, &length, bytes(aad),
                        static_cast<int>(aad.size())) != 1 ||
      EVP_DecryptUpdate(context.get(), bytes(plain), &length, bytes(ciphertext),
                        static_cast<int>(ciphertext.size())) != 1 ||
      EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(kTagBytes),
                          bytes(tag)) != 1) {
    return base::Error::internal("AES-256-GCM decryption failed in OpenSSL");
  }
  if (EVP_DecryptFinal_ex(context.get(), bytes(plain) + length, &length) != 1) {
    OPENSSL_cleanse(plain.data(), plain.size());
    return base::Error::invalid(
        "the sealed value does not authenticate (another key, another binding, or altered bytes)");
  }
  return plain;
}

std::string binding(std::string_view label, std::initializer_list<std::string_view> names) {
  std::string out(label);
  for (const auto name : names) {
    out.push_back('\0');
    out.append(name);
  }
  return out;
}

}  // namespace vouch::secrets
