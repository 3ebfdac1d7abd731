#include "base/digest.hpp"

#include <openssl/evp.h>

#include <boost/algorithm/hex.hpp>
#include <iterator>
#include <stdexcept>

namespace vouch::base {

std::string sha256_hex(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(data.data(), data.size(), digest, &length, EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("OpenSSL EVP_Digest(SHA-256) failed");
  }
  std::string out;
  out.reserve(length * 2);
  boost::algorithm::hex_lower(digest, digest + length, std::back_inserter(out));
  return out;
}

}  // namespace vouch::base
