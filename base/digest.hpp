#pragma once

#include <string>
#include <string_view>

namespace vouch::base {

// Lowercase hex SHA-256 of `data` (OpenSSL). API keys are stored only as this.
std::string sha256_hex(std::string_view data);

}  // namespace vouch::base
