#include "events/plan.hpp"

#include <utility>

namespace vouch::events {
namespace {

// Every plan with its name: what to_string() writes and parse_plan() reads.
constexpr std::pair<Plan, std::string_view> kPlanNames[] = {
    {Plan::kFree, "free"}, {Plan::kPro, "pro"}, {Plan::kEnterprise, "enterprise"}};

}  // namespace

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
  for (const auto& [each, name] : kPlanNames) {
    if (each == plan) return name;
  }
  return "free";
}

std::optional<Plan> parse_plan(std::string_view text) {
  for (const auto& [plan, name] : kPlanNames) {
    if (name == text) return plan;
  }
  return std::nullopt;
}

}  // namespace vouch::events
