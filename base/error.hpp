#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vouch::base {

// Stable, machine-readable failure kinds. The HTTP layer maps each to a status
// and a problem `code`; everything below it speaks only in these.
enum class ErrorCode {
  kInvalid,              // the request is malformed or breaks a rule of the domain
  kNotFound,             // the resource does not exist (or belongs to another account)
  kConflict,             // a stale expected version, or a state that forbids the command
  kUnavailable,          // the service is overloaded or shutting down; retry later
  kInternal,             // storage failed; nothing was acknowledged
  kTooLarge,             // the request (or what it expands to) exceeds a size limit
  kInsufficientStorage,  // the data folder's disk is full; writes resume when space returns
};

std::string_view to_string(ErrorCode code);

struct FieldError {
  std::string field;  // JSON path of the offending field, e.g. "config.coverage.threshold"
  std::string message;
};

struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
  std::vector<FieldError> fields;
  unsigned retry_after_seconds =
      0;  // with kUnavailable, kInsufficientStorage: when trying again makes sense (0: unsaid)

  static Error invalid(std::string message, std::vector<FieldError> fields = {}) {
    return {ErrorCode::kInvalid, std::move(message), std::move(fields)};
  }
  static Error not_found(std::string message) {
    return {ErrorCode::kNotFound, std::move(message), {}};
  }
  static Error conflict(std::string message) {
    return {ErrorCode::kConflict, std::move(message), {}};
  }
  static Error unavailable(std::string message, unsigned retry_after_seconds = 1) {
    return {ErrorCode::kUnavailable, std::move(message), {}, retry_after_seconds};
  }
  static Error internal(std::string message) {
    return {ErrorCode::kInternal, std::move(message), {}};
  }
  static Error too_large(std::string message) {
    return {ErrorCode::kTooLarge, std::move(message), {}};
  }
  static Error insufficient_storage(std::string message, unsigned retry_after_seconds) {
    return {ErrorCode::kInsufficientStorage, std::move(message), {}, retry_after_seconds};
  }
};

}  // namespace vouch::base
