#pragma once

#include <string_view>

#include "events/access.hpp"
#include "events/encoded_event.hpp"
#include "events/result.hpp"

// Stored form of account and API-key events (internal, never public).
namespace vouch::events {

inline constexpr std::string_view kAccountOpenedV1 = "AccountOpened.v1";
inline constexpr std::string_view kAccountPlanChangedV1 = "AccountPlanChanged.v1";
inline constexpr std::string_view kApiKeyIssuedV1 = "ApiKeyIssued.v1";
inline constexpr std::string_view kApiKeyRevokedV1 = "ApiKeyRevoked.v1";

EncodedEvent encode(const AccountEvent& event);
EncodedEvent encode(const ApiKeyEvent& event);

bool is_account_event(std::string_view type);
bool is_api_key_event(std::string_view type);
// REQUIRES: is_account_event(type) / is_api_key_event(type).
Result<AccountEvent> decode_account_event(std::string_view type, std::string_view data);
Result<ApiKeyEvent> decode_api_key_event(std::string_view type, std::string_view data);

}  // namespace vouch::events
