#include "http/auth.hpp"

#include <algorithm>

#include "base/digest.hpp"
#include "base/ids.hpp"

namespace vouch::http {

base::Result<store::KeyGrant> Authenticator::authenticate(std::string_view authorization) const {
  if (authorization.empty()) {
    return base::Error::not_found("the Authorization header is missing; send \"Bearer <API key>\"");
  }
  constexpr std::string_view kScheme = "Bearer ";
  if (authorization.size() <= kScheme.size() ||
      !std::equal(kScheme.begin(), kScheme.end(), authorization.begin(),
                  [](char a, char b) { return std::tolower(a) == std::tolower(b); })) {
    return base::Error::not_found("the Authorization header must be \"Bearer <API key>\"");
  }
  const std::string_view key = authorization.substr(kScheme.size());
  if (key.size() > 256 || key.find_first_of(" \t") != std::string_view::npos) {
    return base::Error::not_found("the API key is malformed");
  }
  auto grant = access_.find_by_hash(base::sha256_hex(key));
  if (!grant) return std::move(grant).error();
  if (!*grant) return base::Error::not_found("the API key is unknown or revoked");
  return std::move(**grant);
}

bool has_scope(const store::KeyGrant& grant, std::string_view scope) {
  return std::find(grant.scopes.begin(), grant.scopes.end(), scope) != grant.scopes.end();
}

}  // namespace vouch::http
