#include "events/idempotency.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include "base/digest.hpp"
#include "events/json_access.hpp"

namespace vouch::events {
namespace {

namespace ja = json_access;

constexpr std::string_view kIdempotencyStreamPrefix = "idempotency-";

}  // namespace

base::Status check_idempotency_key(std::string_view key) {
  const auto refuse = [](std::string message) {
    return base::Error::invalid("the Idempotency-Key header is not usable",
                                {{"Idempotency-Key", std::move(message)}});
  };
  if (key.empty()) return refuse("must not be empty");
  if (key.size() > kMaxIdempotencyKeyLength) {
    return refuse("must be at most " + std::to_string(kMaxIdempotencyKeyLength) + " characters");
  }
  for (const char c : key) {
    if (c < 0x21 || c > 0x7e) return refuse("must be visible ASCII characters only");
  }
  return base::ok_status();
}

std::string idempotency_stream(std::string_view account, std::string_view key) {
  std::string scoped(account);
  scoped.push_back('\n');  // account names never hold a newline
  scoped.append(key);
  return std::string(kIdempotencyStreamPrefix) + base::sha256_hex(scoped);
}

bool is_idempotency_stream(std::string_view name) {
  return name.starts_with(kIdempotencyStreamPrefix);
}

std::string request_fingerprint(std::string_view method, std::string_view target,
                                std::string_view body) {
  std::string text;
  text.reserve(method.size() + target.size() + body.size() + 2);
  text.append(method).append(" ").append(target).append("\n").append(body);
  return base::sha256_hex(text);
}

EncodedEvent encode(const IdempotentResponseRecorded& event) {
  const auto& response = event.response;
  boost::json::array headers;
  for (const auto& [name, value] : response.headers) headers.push_back({name, value});
  boost::json::object data{{"key", response.key},
                           {"fingerprint", response.fingerprint},
                           {"status", response.status},
                           {"contentType", response.content_type},
                           {"headers", std::move(headers)},
                           {"body", response.body},
                           {"at", response.at}};
  if (response.secret_at) {
    data["secretAt"] = *response.secret_at;
    data["secretOf"] = response.secret_of;
    data["secret"] = sealed_secret_to_json(response.secret);
  }
  return ja::encoded(kIdempotentResponseRecordedV1, data);
}

base::Result<IdempotentResponseRecorded> decode_idempotent_response(std::string_view data) {
  return ja::read_stored<IdempotentResponseRecorded>(
      data, std::string(kIdempotentResponseRecordedV1) + " event",
      [&](const boost::json::object& object) -> base::Result<IdempotentResponseRecorded> {
        IdempotentResponse response;
        response.key = ja::string_at(object, "key");
        response.fingerprint = ja::string_at(object, "fingerprint");
        const auto status = ja::int_at(object, "status");
        if (status < 100 || status > 599) throw ja::CorruptRecord{"status out of range"};
        response.status = static_cast<unsigned>(status);
        response.content_type = ja::string_at(object, "contentType");
        const auto* headers = object.if_contains("headers");
        if (!headers || !headers->is_array()) throw ja::CorruptRecord{"headers is not an array"};
        for (const auto& header : headers->get_array()) {
          const auto* pair = header.if_array();
          if (!pair || pair->size() != 2 || !(*pair)[0].is_string() || !(*pair)[1].is_string()) {
            throw ja::CorruptRecord{"a header is not a [name, value] pair"};
          }
          response.headers.emplace_back((*pair)[0].get_string(), (*pair)[1].get_string());
        }
        response.body = ja::string_at(object, "body");
        response.at = ja::int_at(object, "at");
        if (object.contains("secretAt")) {
          const auto at = ja::int_at(object, "secretAt");
          if (at < 0 || static_cast<std::size_t>(at) > response.body.size()) {
            throw ja::CorruptRecord{"secretAt is outside the body"};
          }
          response.secret_at = static_cast<std::size_t>(at);
          response.secret_of = ja::string_at(object, "secretOf");
          response.secret = sealed_secret_at(object, "secret");
        }
        return IdempotentResponseRecorded{std::move(response)};
      });
}

}  // namespace vouch::events
