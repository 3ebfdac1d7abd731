#include "events/ids.hpp"

#include <openssl/rand.h>

#include <array>
#include <stdexcept>

namespace vouch::events {
namespace {

std::string random_hex(std::size_t bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::array<unsigned char, 64> buffer{};
  if (bytes > buffer.size() || RAND_bytes(buffer.data(), static_cast<int>(bytes)) != 1) {
    // Without randomness, ids and keys would be guessable: refuse to continue.
    throw std::runtime_error("OpenSSL RAND_bytes failed");
  }
  std::string out;
  out.reserve(bytes * 2);
  for (std::size_t i = 0; i < bytes; ++i) {
    out.push_back(kDigits[buffer[i] >> 4]);
    out.push_back(kDigits[buffer[i] & 0x0f]);
  }
  return out;
}

}  // namespace

std::string new_id(std::string_view prefix) { return std::string(prefix) + random_hex(12); }

std::string new_api_key() { return std::string(kApiKeyPrefix) + random_hex(32); }

bool looks_like_id(std::string_view id, std::string_view prefix) {
  if (id.size() <= prefix.size() || id.size() > prefix.size() + 64) return false;
  if (id.substr(0, prefix.size()) != prefix) return false;
  for (char c : id.substr(prefix.size())) {
    const bool allowed = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '_';
    if (!allowed) return false;
  }
  return true;
}

}  // namespace vouch::events
