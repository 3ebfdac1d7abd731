#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/clock.hpp"
#include "base/result.hpp"
#include "events/encoded_event.hpp"
#include "events/plan.hpp"

// Accounts and their API keys: two small aggregates with internal events
// (never shown to webhooks). Streams: "account-<name>" and "apikey-<id>".
namespace vouch::events {

// Account names: 1 to kMaxAccountNameLength characters of [a-z0-9_-], starting
// with a letter or digit.
inline constexpr std::size_t kMaxAccountNameLength = 64;
bool is_valid_account_name(std::string_view name);
// The longest name of an API key.
inline constexpr std::size_t kMaxKeyNameLength = 200;

// What an API key may grant: each route needs one of these.
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

// --- Account --------------------------------------------------------------

struct OpenAccount {  // opens the account, or moves an open one to `plan`
  std::string account;
  Plan plan = Plan::kFree;
  base::Millis at = 0;
};

struct AccountOpened {
  std::string account;
  Plan plan = Plan::kFree;
  base::Millis at = 0;
};

struct AccountPlanChanged {
  std::string account;
  Plan plan = Plan::kFree;
  base::Millis at = 0;
};

using AccountEvent = std::variant<AccountOpened, AccountPlanChanged>;

struct AccountState {
  bool open = false;
  Plan plan = Plan::kFree;
};

base::Result<std::vector<AccountEvent>> decide(const AccountState& state,
                                               const OpenAccount& command);
AccountState evolve(AccountState state, const AccountEvent& event);

// --- API key --------------------------------------------------------------

struct IssueApiKey {
  std::string key_id;
  std::string account;
  std::string name;
  std::vector<std::string> scopes;
  std::string hash;  // SHA-256 hex of the secret; the secret itself is never stored
  base::Millis at = 0;
};

struct RevokeApiKey {
  std::string key_id;
  base::Millis at = 0;
};

struct ApiKeyIssued {
  std::string key_id;
  std::string account;
  std::string name;
  std::vector<std::string> scopes;
  std::string hash;
  base::Millis at = 0;
};

struct ApiKeyRevoked {
  std::string key_id;
  base::Millis at = 0;
};

using ApiKeyEvent = std::variant<ApiKeyIssued, ApiKeyRevoked>;

struct ApiKeyState {
  std::optional<ApiKeyIssued> issued;
  bool revoked = false;
};

// kInvalid for an empty or unknown scope or a bad account name; kConflict
// when the key id is taken.
base::Result<std::vector<ApiKeyEvent>> decide(const ApiKeyState& state, const IssueApiKey& command);
// kNotFound for an unknown key; revoking twice produces no second event.
base::Result<std::vector<ApiKeyEvent>> decide(const ApiKeyState& state,
                                              const RevokeApiKey& command);
ApiKeyState evolve(ApiKeyState state, const ApiKeyEvent& event);

// --- Stored form (events/access_codec.cpp) -------------------------------

// Stored form of account and API-key events (internal, never public).
inline constexpr std::string_view kAccountOpenedV1 = "AccountOpened.v1";
inline constexpr std::string_view kAccountPlanChangedV1 = "AccountPlanChanged.v1";
inline constexpr std::string_view kApiKeyIssuedV1 = "ApiKeyIssued.v1";
inline constexpr std::string_view kApiKeyRevokedV1 = "ApiKeyRevoked.v1";

EncodedEvent encode(const AccountEvent& event);
EncodedEvent encode(const ApiKeyEvent& event);

bool is_account_event(std::string_view type);
bool is_api_key_event(std::string_view type);
// REQUIRES: is_account_event(type) / is_api_key_event(type).
base::Result<AccountEvent> decode_account_event(std::string_view type, std::string_view data);
base::Result<ApiKeyEvent> decode_api_key_event(std::string_view type, std::string_view data);

}  // namespace vouch::events
