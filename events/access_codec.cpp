#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>

#include "events/access.hpp"
#include "events/json_access.hpp"
#include "events/overloaded.hpp"

namespace vouch::events {
namespace {

namespace ja = json_access;

Plan plan_at(const boost::json::object& object) {
  auto plan = parse_plan(ja::string_at(object, "plan"));
  if (!plan) throw ja::CorruptRecord{"unknown plan"};
  return *plan;
}

}  // namespace

EncodedEvent encode(const AccountEvent& event) {
  return std::visit(Overloaded{
                        [](const AccountOpened& opened) {
                          boost::json::object data{{"account", opened.account},
                                                   {"plan", to_string(opened.plan)},
                                                   {"at", opened.at}};
                          return ja::encoded(kAccountOpenedV1, data);
                        },
                        [](const AccountPlanChanged& changed) {
                          boost::json::object data{{"account", changed.account},
                                                   {"plan", to_string(changed.plan)},
                                                   {"at", changed.at}};
                          return ja::encoded(kAccountPlanChangedV1, data);
                        },
                    },
                    event);
}

EncodedEvent encode(const ApiKeyEvent& event) {
  return std::visit(
      Overloaded{
          [](const ApiKeyIssued& issued) {
            boost::json::object data{
                {"keyId", issued.key_id}, {"account", issued.account},
                {"name", issued.name},    {"scopes", ja::strings_to_json(issued.scopes)},
                {"hash", issued.hash},    {"at", issued.at}};
            return ja::encoded(kApiKeyIssuedV1, data);
          },
          [](const ApiKeyRevoked& revoked) {
            boost::json::object data{{"keyId", revoked.key_id}, {"at", revoked.at}};
            return ja::encoded(kApiKeyRevokedV1, data);
          },
      },
      event);
}

bool is_account_event(std::string_view type) {
  return type == kAccountOpenedV1 || type == kAccountPlanChangedV1;
}

bool is_api_key_event(std::string_view type) {
  return type == kApiKeyIssuedV1 || type == kApiKeyRevokedV1;
}

Result<AccountEvent> decode_account_event(std::string_view type, std::string_view data) {
  return ja::read_stored<AccountEvent>(
      data, std::string(type) + " event",
      [&](const boost::json::object& object) -> Result<AccountEvent> {
        if (type == kAccountOpenedV1) {
          return AccountEvent{AccountOpened{ja::string_at(object, "account"), plan_at(object),
                                            ja::int_at(object, "at")}};
        }
        if (type == kAccountPlanChangedV1) {
          return AccountEvent{AccountPlanChanged{ja::string_at(object, "account"), plan_at(object),
                                                 ja::int_at(object, "at")}};
        }
        return Error::internal("not an account event: " + std::string(type));
      });
}

Result<ApiKeyEvent> decode_api_key_event(std::string_view type, std::string_view data) {
  return ja::read_stored<ApiKeyEvent>(
      data, std::string(type) + " event",
      [&](const boost::json::object& object) -> Result<ApiKeyEvent> {
        if (type == kApiKeyIssuedV1) {
          return ApiKeyEvent{
              ApiKeyIssued{ja::string_at(object, "keyId"), ja::string_at(object, "account"),
                           ja::string_at(object, "name"), ja::strings_at(object, "scopes"),
                           ja::string_at(object, "hash"), ja::int_at(object, "at")}};
        }
        if (type == kApiKeyRevokedV1) {
          return ApiKeyEvent{
              ApiKeyRevoked{ja::string_at(object, "keyId"), ja::int_at(object, "at")}};
        }
        return Error::internal("not an API key event: " + std::string(type));
      });
}

}  // namespace vouch::events
