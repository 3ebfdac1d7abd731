#include "events/scopes.hpp"

#include <algorithm>

namespace vouch::events {

const std::vector<std::string>& known_scopes() {
  static const std::vector<std::string> kScopes{
      std::string(kScopeProjectsRead), std::string(kScopeProjectsWrite),
      std::string(kScopeTestsRead),    std::string(kScopeTestsWrite),
      std::string(kScopeWebhooksRead), std::string(kScopeWebhooksWrite),
      std::string(kScopeEventsRead),   std::string(kScopeAdmin)};
  return kScopes;
}

bool is_known_scope(std::string_view scope) {
  const auto& scopes = known_scopes();
  return std::find(scopes.begin(), scopes.end(), scope) != scopes.end();
}

}  // namespace vouch::events
