#pragma once

#include <string_view>

#include "base/result.hpp"
#include "store/access_view.hpp"

namespace vouch::http {

// Checks "Authorization: Bearer <key>" against the keys read model by the
// SHA-256 of the key. kNotFound (→ 401) names what is wrong: missing,
// malformed, or unknown/revoked — never which keys exist.
class Authenticator {
 public:
  // REQUIRES: `access` outlives the authenticator.
  explicit Authenticator(const store::AccessView& access) : access_(access) {}

  [[nodiscard]] base::Result<store::KeyGrant> authenticate(std::string_view authorization) const;

 private:
  const store::AccessView& access_;
};

bool has_scope(const store::KeyGrant& grant, std::string_view scope);

}  // namespace vouch::http
