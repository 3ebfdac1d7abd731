#include "base/error.hpp"

namespace vouch::base {

std::string_view to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalid:
      return "invalid";
    case ErrorCode::kNotFound:
      return "not_found";
    case ErrorCode::kConflict:
      return "conflict";
    case ErrorCode::kUnavailable:
      return "unavailable";
    case ErrorCode::kInternal:
      return "internal";
    case ErrorCode::kTooLarge:
      return "too_large";
    case ErrorCode::kInsufficientStorage:
      return "insufficient_storage";
  }
  return "internal";
}

}  // namespace vouch::base
