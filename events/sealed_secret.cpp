#include "events/sealed_secret.hpp"

#include "events/json_access.hpp"

namespace vouch::events {

boost::json::object sealed_secret_to_json(const SealedSecret& secret) {
  return {{"key", secret.key_id}, {"sealed", secret.sealed}};
}

SealedSecret sealed_secret_at(const boost::json::object& object, std::string_view key) {
  const auto* value = object.if_contains(key);
  if (!value) throw json_access::CorruptRecord{"missing " + std::string(key)};
  const auto& sealed = json_access::as_object(*value, key);
  return {json_access::string_at(sealed, "key"), json_access::string_at(sealed, "sealed")};
}

}  // namespace vouch::events
