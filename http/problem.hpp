#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "http/message.hpp"

namespace vouch::http {

// Error answers as RFC 9457 problem details (application/problem+json):
// type, title, status, detail, plus `code` (a stable machine word),
// `errors` [{field, message}] for validation, and `requestId`.
struct Problem {
  unsigned status = 500;
  std::string code;    // e.g. "invalid_request", "not_found", "rate_limited"
  std::string detail;  // a sentence for the human reading it
  std::vector<base::FieldError> errors;
  unsigned retry_after_seconds = 0;  // sent as Retry-After when not 0
};

Response to_response(const Problem& problem, std::string_view request_id);

// The status and code of a domain error.
Problem problem_of(const base::Error& error);

}  // namespace vouch::http
