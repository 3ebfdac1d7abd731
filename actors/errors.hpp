#pragma once

#include <caf/error.hpp>
#include <string_view>
#include <utility>
#include <vector>

#include "base/error.hpp"
#include "base/result.hpp"
#include "log/log.hpp"

namespace vouch::actors {

// Domain errors cross actor boundaries as caf::error of the "vouch" category
// with the events::Error in the context, and come back out unchanged.
caf::error to_caf_error(base::Error error);
// CAF's own errors (a timed-out request, a dead actor) become kUnavailable.
base::Error from_caf_error(const caf::error& error);

// The items `listed` holds; none, with its error logged under `component`,
// when the list could not be read.
template <class T>
std::vector<T> items_or_logged(base::Result<std::vector<T>> listed, std::string_view component) {
  if (listed) return std::move(listed).value();
  log::error(component, listed.error().message);
  return {};
}

}  // namespace vouch::actors
