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

std::vector<std::string> strings_at(const boost::json::object& object, std::string_view key) {
  const auto* value = object.if_contains(key);
  if (!value || !value->is_array()) throw ja::CorruptRecord{"field \"scopes\" is not an array"};
  std::vector<std::string> out;
  for (const auto& item : value->get_array()) {
    if (!item.is_string()) throw ja::CorruptRecord{"a scope is not a string"};
    out.emplace_back(item.get_string());
  }
  return out;
}

}  // namespace

EncodedEvent encode(const AccountEvent& event) {
  return std::visit(
      Overloaded{
          [](const AccountOpened& opened) {
            boost::json::object data{
                {"account", opened.account}, {"plan", to_string(opened.plan)}, {"at", opened.at}};
            return EncodedEvent{std::string(kAccountOpenedV1), boost::json::serialize(data)};
          },
          [](const AccountPlanChanged& changed) {
            boost::json::object data{{"account", changed.account},
                                     {"plan", to_string(changed.plan)},
                                     {"at", changed.at}};
            return EncodedEvent{std::string(kAccountPlanChangedV1), boost::json::serialize(data)};
          },
      },
      event);
}

EncodedEvent encode(const ApiKeyEvent& event) {
  return std::visit(
      Overloaded{
          [](const ApiKeyIssued& issued) {
            boost::json::array scopes(issued.scopes.begin(), issued.scopes.end());
            boost::json::object data{{"keyId", issued.key_id}, {"account", issued.account},
                                     {"name", issued.name},    {"scopes", std::move(scopes)},
                                     {"hash", issued.hash},    {"at", issued.at}};
            return EncodedEvent{std::string(kApiKeyIssuedV1), boost::json::serialize(data)};
          },
          [](const ApiKeyRevoked& revoked) {
            boost::json::object data{{"keyId", revoked.key_id}, {"at", revoked.at}};
            return EncodedEvent{std::string(kApiKeyRevokedV1), boost::json::serialize(data)};
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
  try {
    const auto object = ja::parse_object(data, type);
    if (type == kAccountOpenedV1) {
      return AccountEvent{AccountOpened{ja::string_at(object, "account"), plan_at(object),
                                        ja::int_at(object, "at")}};
    }
    if (type == kAccountPlanChangedV1) {
      return AccountEvent{AccountPlanChanged{ja::string_at(object, "account"), plan_at(object),
                                             ja::int_at(object, "at")}};
    }
    return Error::internal("not an account event: " + std::string(type));
  } catch (const ja::CorruptRecord& corrupt) {
    return Error::internal("corrupt " + std::string(type) + " event: " + corrupt.what);
  }
}

Result<ApiKeyEvent> decode_api_key_event(std::string_view type, std::string_view data) {
  try {
    const auto object = ja::parse_object(data, type);
    if (type == kApiKeyIssuedV1) {
      return ApiKeyEvent{ApiKeyIssued{ja::string_at(object, "keyId"),
                                      ja::string_at(object, "account"),
                                      ja::string_at(object, "name"), strings_at(object, "scopes"),
                                      ja::string_at(object, "hash"), ja::int_at(object, "at")}};
    }
    if (type == kApiKeyRevokedV1) {
      return ApiKeyEvent{ApiKeyRevoked{ja::string_at(object, "keyId"), ja::int_at(object, "at")}};
    }
    return Error::internal("not an API key event: " + std::string(type));
  } catch (const ja::CorruptRecord& corrupt) {
    return Error::internal("corrupt " + std::string(type) + " event: " + corrupt.what);
  }
}

}  // namespace vouch::events
