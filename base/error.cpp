#include "base/error.hpp"

#include <utility>

namespace vouch::base {
namespace {

// Each code and its name in error bodies and logs.
constexpr std::pair<ErrorCode, std::string_view> kCodeNames[] = {
    {ErrorCode::kInvalid, "invalid"},
    {ErrorCode::kNotFound, "not_found"},
    {ErrorCode::kConflict, "conflict"},
    {ErrorCode::kUnavailable, "unavailable"},
    {ErrorCode::kInternal, "internal"},
    {ErrorCode::kTooLarge, "too_large"},
    {ErrorCode::kInsufficientStorage, "insufficient_storage"}};

}  // namespace

std::string_view to_string(ErrorCode code) {
  for (const auto& [known, name] : kCodeNames) {
    if (known == code) return name;
  }
  return "internal";
}

}  // namespace vouch::base
