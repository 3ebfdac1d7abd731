#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/clock.hpp"
#include "base/result.hpp"
#include "events/encoded_event.hpp"

// Idempotency keys (Stripe's semantics; docs/decisions.md): the first response to a
// POST that carried `Idempotency-Key` is recorded, and a retry with the same
// key and the same request within the window gets that response again
// instead of the work being done twice.
namespace vouch::events {

// How long a recorded response answers retries of its key.
inline constexpr base::Millis kIdempotencyWindowMs = 24LL * 60 * 60 * 1000;
inline constexpr std::size_t kMaxIdempotencyKeyLength = 255;

inline constexpr std::string_view kIdempotentResponseRecordedV1 = "IdempotentResponseRecorded.v1";

// The response as it was first sent, and what it answered.
struct IdempotentResponse {
  std::string key;          // as the client sent it
  std::string fingerprint;  // request_fingerprint() of the request it answered
  unsigned status = 0;
  std::string content_type;
  std::vector<std::pair<std::string, std::string>> headers;  // e.g. Location
  std::string body;
  base::Millis at = 0;
};

// The one event of the stream "idempotency-<sha256 of account and key>"
// (internal, never public). A key used again after its window appends a
// newer one to the same stream.
struct IdempotentResponseRecorded {
  IdempotentResponse response;
};

// kInvalid unless `key` is 1 to 255 visible ASCII characters.
[[nodiscard]] base::Status check_idempotency_key(std::string_view key);

// The stream of `account`'s key: a hash, so that any key makes a safe name
// and two accounts' equal keys never meet.
std::string idempotency_stream(std::string_view account, std::string_view key);

// SHA-256 over the method, the target and the body: equal requests, equal
// fingerprints.
std::string request_fingerprint(std::string_view method, std::string_view target,
                                std::string_view body);

// Whether a response recorded at `recorded_at` still answers at `now`.
inline bool answers_retries(base::Millis recorded_at, base::Millis now) {
  return now - recorded_at < kIdempotencyWindowMs;
}

EncodedEvent encode(const IdempotentResponseRecorded& event);
// kInternal when `data` is corrupt.
base::Result<IdempotentResponseRecorded> decode_idempotent_response(std::string_view data);

}  // namespace vouch::events
