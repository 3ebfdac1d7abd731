#pragma once

#include <cstdint>

#include "process/sandbox/options.hpp"

namespace vouch::sandbox {

// The strongest isolation this machine allows (bubblewrap, then unshare,
// else none), found by trying it: the exact sandbox command a run would use,
// on a throwaway folder, running `true`.
Isolation detect_isolation(std::uint64_t uid, bool is_root);

}  // namespace vouch::sandbox
