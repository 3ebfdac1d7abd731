#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "events/sealed_secret.hpp"

// The HTTP exchange as handlers see it: plain structs, no Beast, so that only
// session.cpp compiles Beast's headers.
namespace vouch::http {

struct Request {
  std::string method;  // "GET", "POST", …
  std::string target;  // path and query as sent
  std::string authorization;
  std::string content_type;
  std::string prefer;           // RFC 7240 preferences, e.g. "wait=20"
  std::string idempotency_key;  // Idempotency-Key, empty when not sent
  std::string body;
};

// A secret in a response body (a webhook's signing secret, a new API key),
// which an idempotency record never keeps in plain text.
struct BodySecret {
  std::string plain;
  // A webhook's secret comes sealed already, under its webhook's data key.
  // An API key comes unsealed (webhook_id and sealed empty): the record seals
  // it under a data key of its own (http/idempotency.cpp).
  std::string webhook_id;
  events::SealedSecret sealed;
};

struct Response {
  unsigned status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  // Set when `body` holds a secret in plain text: an idempotency record
  // keeps it sealed instead (http/idempotency.cpp).
  std::optional<BodySecret> secret;

  void set_header(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
  }
};

// Delivers the one response to a request. Callable from any thread; the
// server moves it onto the connection's strand.
using Respond = std::function<void(Response)>;

}  // namespace vouch::http
