#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/clock.hpp"
#include "base/result.hpp"
#include "events/encoded_event.hpp"
#include "events/sealed_secret.hpp"

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
  // A secret the response held is never recorded in plain text: it is cut
  // out of `body` at byte `secret_at`, and `secret` keeps it sealed (empty
  // when it could not be kept). A webhook's secret (creation, rotation) is
  // sealed under the webhook's data key; a new API key (POST /v1/keys) under
  // a data key of the idempotency stream's own, destroyed once the record
  // stops answering retries. A replay puts it back while that key exists.
  std::optional<std::size_t> secret_at;
  std::string secret_of;  // the webhook's id, or this record's idempotency stream
  SealedSecret secret;
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
// Whether `name` is such a stream.
bool is_idempotency_stream(std::string_view name);

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
