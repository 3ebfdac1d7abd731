#include "events/access.hpp"
#include "events/json_access.hpp"
#include "events/json_fields.hpp"
#include "events/stored_events.hpp"

namespace vouch::events {
namespace {

namespace ja = json_access;

std::string_view plan_name(Plan plan) { return to_string(plan); }

Plan plan_at(const boost::json::object& object, std::string_view key) {
  auto plan = parse_plan(ja::string_at(object, key));
  if (!plan) throw ja::CorruptRecord{"unknown plan"};
  return *plan;
}

// How each account and API-key event is stored.
constexpr auto kAccountEvents = std::make_tuple(
    ja::stored_event<AccountOpened>(
        kAccountOpenedV1,
        std::make_tuple(ja::field("account", &AccountOpened::account),
                        ja::field("plan", &AccountOpened::plan, plan_name, plan_at),
                        ja::field("at", &AccountOpened::at))),
    ja::stored_event<AccountPlanChanged>(
        kAccountPlanChangedV1,
        std::make_tuple(ja::field("account", &AccountPlanChanged::account),
                        ja::field("plan", &AccountPlanChanged::plan, plan_name, plan_at),
                        ja::field("at", &AccountPlanChanged::at))));
constexpr auto kApiKeyEvents = std::make_tuple(
    ja::stored_event<ApiKeyIssued>(
        kApiKeyIssuedV1,
        std::make_tuple(
            ja::field("keyId", &ApiKeyIssued::key_id), ja::field("account", &ApiKeyIssued::account),
            ja::field("name", &ApiKeyIssued::name), ja::field("scopes", &ApiKeyIssued::scopes),
            ja::field("hash", &ApiKeyIssued::hash), ja::field("at", &ApiKeyIssued::at))),
    ja::stored_event<ApiKeyRevoked>(kApiKeyRevokedV1,
                                    std::make_tuple(ja::field("keyId", &ApiKeyRevoked::key_id),
                                                    ja::field("at", &ApiKeyRevoked::at))));

}  // namespace

EncodedEvent encode(const AccountEvent& event) { return ja::encode_event(event, kAccountEvents); }

EncodedEvent encode(const ApiKeyEvent& event) { return ja::encode_event(event, kApiKeyEvents); }

bool is_account_event(std::string_view type) { return ja::is_stored_event(type, kAccountEvents); }

bool is_api_key_event(std::string_view type) { return ja::is_stored_event(type, kApiKeyEvents); }

base::Result<AccountEvent> decode_account_event(std::string_view type, std::string_view data) {
  return ja::decode_event<AccountEvent>(type, data, "an account event", kAccountEvents);
}

base::Result<ApiKeyEvent> decode_api_key_event(std::string_view type, std::string_view data) {
  return ja::decode_event<ApiKeyEvent>(type, data, "an API key event", kApiKeyEvents);
}

}  // namespace vouch::events
