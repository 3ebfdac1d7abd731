#pragma once

#include <caf/actor_system_config.hpp>
#include <caf/atom.hpp>

#include "actors/type_ids.hpp"

namespace vouch::testing {

// An actor system on CAF's deterministic test scheduler
// (caf::scheduler::test_coordinator): messages run when the test calls run(),
// and delayed messages and timeouts fire when it advances the scheduler's
// clock, which is also what actors read from clock().now().
inline caf::actor_system_config& testing_config(caf::actor_system_config& config) {
  config.set("scheduler.policy", caf::atom("testing"));
  config.add_message_types<caf::id_block::vouch>();
  return config;
}

}  // namespace vouch::testing
