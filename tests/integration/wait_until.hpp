#pragma once

#include <chrono>
#include <functional>
#include <thread>

namespace vouch::testing {

// Polls `done` every 20 ms until it holds or `limit` passes; returns whether it held.
inline bool wait_until(const std::function<bool()>& done,
                       std::chrono::milliseconds limit = std::chrono::seconds(10)) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return done();
}

}  // namespace vouch::testing
