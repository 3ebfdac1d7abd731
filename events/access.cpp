#include "events/access.hpp"

#include <algorithm>

#include "base/overloaded.hpp"

namespace vouch::events {
namespace {

// What is_valid_account_name() accepts, as a field error says it.
std::string account_name_rule() {
  return "must be 1-" + std::to_string(kMaxAccountNameLength) +
         " characters of a-z, 0-9, '_' and '-'";
}

}  // namespace

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

bool is_valid_account_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxAccountNameLength) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!alnum && (i == 0 || (c != '_' && c != '-'))) return false;
  }
  return true;
}

base::Result<std::vector<AccountEvent>> decide(const AccountState& state,
                                               const OpenAccount& command) {
  if (!is_valid_account_name(command.account)) {
    return base::Error::invalid(
        "the account name is not valid",
        {{"account", account_name_rule() + ", starting with a letter or digit"}});
  }
  if (!state.open) {
    return std::vector<AccountEvent>{AccountOpened{command.account, command.plan, command.at}};
  }
  if (state.plan != command.plan) {
    return std::vector<AccountEvent>{AccountPlanChanged{command.account, command.plan, command.at}};
  }
  return std::vector<AccountEvent>{};
}

AccountState evolve(AccountState state, const AccountEvent& event) {
  std::visit(base::Overloaded{
                 [&](const AccountOpened& opened) {
                   state.open = true;
                   state.plan = opened.plan;
                 },
                 [&](const AccountPlanChanged& changed) { state.plan = changed.plan; },
             },
             event);
  return state;
}

base::Result<std::vector<ApiKeyEvent>> decide(const ApiKeyState& state,
                                              const IssueApiKey& command) {
  if (state.issued) return base::Error::conflict("key " + command.key_id + " already exists");
  std::vector<base::FieldError> errors;
  if (!is_valid_account_name(command.account)) {
    errors.push_back({"account", account_name_rule()});
  }
  if (command.scopes.empty()) errors.push_back({"scopes", "must name at least one scope"});
  for (std::size_t i = 0; i < command.scopes.size(); ++i) {
    if (!is_known_scope(command.scopes[i])) {
      errors.push_back(
          {"scopes[" + std::to_string(i) + "]", "unknown scope \"" + command.scopes[i] + "\""});
    }
  }
  if (command.name.size() > kMaxKeyNameLength) {
    errors.push_back(
        {"name", "must be at most " + std::to_string(kMaxKeyNameLength) + " characters"});
  }
  if (!errors.empty()) return base::Error::invalid("the key is not valid", std::move(errors));
  return std::vector<ApiKeyEvent>{ApiKeyIssued{command.key_id, command.account, command.name,
                                               command.scopes, command.hash, command.at}};
}

base::Result<std::vector<ApiKeyEvent>> decide(const ApiKeyState& state,
                                              const RevokeApiKey& command) {
  if (!state.issued) return base::Error::not_found("no key " + command.key_id);
  if (state.revoked) return std::vector<ApiKeyEvent>{};
  return std::vector<ApiKeyEvent>{ApiKeyRevoked{command.key_id, command.at}};
}

ApiKeyState evolve(ApiKeyState state, const ApiKeyEvent& event) {
  std::visit(base::Overloaded{
                 [&](const ApiKeyIssued& issued) { state.issued = issued; },
                 [&](const ApiKeyRevoked&) { state.revoked = true; },
             },
             event);
  return state;
}

}  // namespace vouch::events
