#include "events/plan.hpp"

namespace vouch::events {

PlanLimits limits_of(Plan plan) {
  switch (plan) {
    case Plan::kFree:
      return {60, 1'000};
    case Plan::kPro:
      return {300, 10'000};
    case Plan::kEnterprise:
      return {1'000, 0};
  }
  return {60, 1'000};
}

std::string_view to_string(Plan plan) {
  switch (plan) {
    case Plan::kFree:
      return "free";
    case Plan::kPro:
      return "pro";
    case Plan::kEnterprise:
      return "enterprise";
  }
  return "free";
}

std::optional<Plan> parse_plan(std::string_view text) {
  if (text == "free") return Plan::kFree;
  if (text == "pro") return Plan::kPro;
  if (text == "enterprise") return Plan::kEnterprise;
  return std::nullopt;
}

}  // namespace vouch::events
