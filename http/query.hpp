#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace vouch::http {

// Paging parameters of collections: `limit` (1 to kMaxPageLimit, default 20)
// and `startingAfter` (an id). kInvalid with field errors for bad values.
inline constexpr std::size_t kMaxPageLimit = 100;
struct PageQuery {
  std::size_t limit = 20;
  std::optional<std::string> starting_after;
};

[[nodiscard]] base::Result<PageQuery> parse_page_query(std::string_view target);

// The decoded value of query parameter `name`; nullopt when absent.
std::optional<std::string> query_param(std::string_view target, std::string_view name);

// The path of a request target, without the query; nullopt when the target is
// not a valid origin-form URL.
std::optional<std::string> path_of(std::string_view target);

}  // namespace vouch::http
