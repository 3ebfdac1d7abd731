#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace vouch::events {

inline constexpr std::string_view kScopeProjectsRead = "projects:read";
inline constexpr std::string_view kScopeProjectsWrite = "projects:write";
inline constexpr std::string_view kScopeTestsRead = "tests:read";
inline constexpr std::string_view kScopeTestsWrite = "tests:write";
inline constexpr std::string_view kScopeWebhooksRead = "webhooks:read";
inline constexpr std::string_view kScopeWebhooksWrite = "webhooks:write";
inline constexpr std::string_view kScopeEventsRead = "events:read";
// The operator's scope: issues and revokes keys. It does not imply the others.
inline constexpr std::string_view kScopeAdmin = "admin";

const std::vector<std::string>& known_scopes();
bool is_known_scope(std::string_view scope);

}  // namespace vouch::events
