#include "base/ids.hpp"

#include <openssl/rand.h>

#include <algorithm>
#include <array>
#include <boost/algorithm/hex.hpp>
#include <cstring>
#include <iterator>
#include <stdexcept>

#include "base/clock.hpp"

namespace vouch::base {
namespace {

// Random bytes from OpenSSL's CSPRNG, drawn 4 KiB at a time per thread: each
// RAND_bytes call costs a lock and a DRBG round, and ids are made per event.
// Every byte is handed out once.
class RandomBuffer {
 public:
  void fill(unsigned char* out, std::size_t count) {
    while (count > 0) {
      if (used_ == buffer_.size()) refill();
      const auto take = std::min(count, buffer_.size() - used_);
      std::memcpy(out, buffer_.data() + used_, take);
      // Not kept once handed out.
      std::memset(buffer_.data() + used_, 0, take);
      used_ += take;
      out += take;
      count -= take;
    }
  }

 private:
  void refill() {
    if (RAND_bytes(buffer_.data(), static_cast<int>(buffer_.size())) != 1) {
      // Without randomness, ids and keys would be guessable: refuse to continue.
      throw std::runtime_error("OpenSSL RAND_bytes failed");
    }
    used_ = 0;
  }

  std::array<unsigned char, 4096> buffer_{};
  std::size_t used_ = buffer_.size();
};

// Appends `bytes` random bytes to `out` as lowercase hex.
void append_random_hex(std::string& out, std::size_t bytes) {
  thread_local RandomBuffer random;
  std::array<unsigned char, 64> buffer{};
  if (bytes > buffer.size()) throw std::invalid_argument("random_hex: too many bytes");
  random.fill(buffer.data(), bytes);
  boost::algorithm::hex_lower(buffer.begin(), buffer.begin() + bytes, std::back_inserter(out));
}

std::string random_hex(std::size_t bytes) {
  std::string out;
  out.reserve(bytes * 2);
  append_random_hex(out, bytes);
  return out;
}

}  // namespace

std::string new_id(std::string_view prefix) { return std::string(prefix) + random_hex(12); }

std::string new_time_ordered_id(std::string_view prefix) {
  const auto millis = static_cast<std::uint64_t>(std::max<Millis>(now_millis(), 0));
  std::array<unsigned char, 6> time{};  // big-endian: ids sort as their times
  for (std::size_t i = 0; i < time.size(); ++i) time[i] = (millis >> (8 * (5 - i))) & 0xff;
  std::string out(prefix);
  out.reserve(prefix.size() + 28);
  boost::algorithm::hex_lower(time.begin(), time.end(), std::back_inserter(out));
  append_random_hex(out, 8);
  return out;
}

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

}  // namespace vouch::base
