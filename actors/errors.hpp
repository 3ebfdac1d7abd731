#pragma once

#include <caf/error.hpp>

#include "base/error.hpp"

namespace vouch::actors {

// Domain errors cross actor boundaries as caf::error of the "vouch" category
// with the events::Error in the context, and come back out unchanged.
caf::error to_caf_error(base::Error error);
// CAF's own errors (a timed-out request, a dead actor) become kUnavailable.
base::Error from_caf_error(const caf::error& error);

}  // namespace vouch::actors
