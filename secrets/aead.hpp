#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>

#include "base/result.hpp"

// AES-256-GCM through OpenSSL's EVP interface: the one cipher that seals
// webhook secrets under data keys and data keys under the master key.
namespace vouch::secrets {

inline constexpr std::size_t kKeyBytes = 32;    // AES-256
inline constexpr std::size_t kNonceBytes = 12;  // GCM's 96-bit IV
inline constexpr std::size_t kTagBytes = 16;

// A 256-bit key; its bytes are wiped when it is destroyed.
class Key {
 public:
  Key() = default;
  explicit Key(const std::array<unsigned char, kKeyBytes>& bytes) : bytes_(bytes) {}
  Key(const Key&) = default;
  Key& operator=(const Key&) = default;
  ~Key();

  // kInternal when OpenSSL's random generator fails.
  [[nodiscard]] static base::Result<Key> random();
  // kInvalid unless `bytes` is exactly kKeyBytes long.
  [[nodiscard]] static base::Result<Key> from_bytes(std::string_view bytes);

  const unsigned char* data() const { return bytes_.data(); }
  std::string_view view() const {
    return {reinterpret_cast<const char*>(bytes_.data()), bytes_.size()};
  }

 private:
  std::array<unsigned char, kKeyBytes> bytes_{};
};

// `plain` encrypted under `key` with a fresh random nonce, authenticated with
// `aad`: nonce, ciphertext and tag, in that order. kInternal when OpenSSL fails.
[[nodiscard]] base::Result<std::string> seal(const Key& key, std::string_view plain,
                                             std::string_view aad);

// The plain text of `sealed` (as seal() makes it), or kInvalid when it does
// not authenticate: another key, another `aad`, or altered bytes.
[[nodiscard]] base::Result<std::string> open(const Key& key, std::string_view sealed,
                                             std::string_view aad);

// The associated data that binds a sealed value to where it belongs: a
// versioned label and the names it belongs to, each ended by a NUL byte, so
// that a value copied under another name does not open.
std::string binding(std::string_view label, std::initializer_list<std::string_view> names);

}  // namespace vouch::secrets
