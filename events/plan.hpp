#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace vouch::events {

enum class Plan { kFree, kPro, kEnterprise };

// The contract's table (§8). A per-day limit of 0 means unlimited.
struct PlanLimits {
  std::uint32_t per_minute;
  std::uint32_t per_day;
};

PlanLimits limits_of(Plan plan);
std::string_view to_string(Plan plan);
std::optional<Plan> parse_plan(std::string_view text);

}  // namespace vouch::events
