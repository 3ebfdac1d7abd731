#!/usr/bin/env bash
# Installs everything Vouch needs on Debian bookworm (apt packages and the
# runner's npm packages) and builds it into ./build. Safe to run again: it
# installs only what is missing and rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  build-essential cmake ninja-build pkg-config git curl
  libcaf-dev libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev
  libboost-program-options1.81-dev libsimdjson-dev librocksdb-dev libssl-dev
  libgtest-dev libjemalloc-dev libspdlog-dev prometheus-cpp-dev libarchive-dev bubblewrap util-linux openssl
  libxml2-utils  # xmllint: the JUnit report's schema check
)

source scripts/lib.sh
# Node 18 or newer; Debian's own nodejs when the machine has none or an older one.
if ! command -v node >/dev/null || [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 18 ]; then
  APT_PACKAGES+=(nodejs npm)
fi
apt_install_missing setup "${APT_PACKAGES[@]}"

# The npm packages, each folder's exactly as pinned in its lockfile. The runner's with
# `npm install` (not `npm ci`): npm 11 writes a lockfile without other platforms' optional
# bindings (unrs-resolver's) and then `npm ci` refuses that same lockfile as out of sync;
# `npm install` installs the locked versions all the same.
npm_install_locked setup runner "the runner's npm packages" install
# The OpenAPI checks' packages (Redocly's linter, Ajv).
npm_install_locked setup tests/openapi "the OpenAPI checks' npm packages" install
# The console's vendored libraries (Preact with htm, Prism); the build compiles them into vouchd.
npm_install_locked setup console "the console's npm packages"
# The lint tools (ESLint, Prettier, typescript-eslint; scripts/lint.sh).
npm_install_locked setup tools/lint "the lint tools' npm packages"

# Commit subjects of at most 72 characters (tools/git-hooks/commit-msg), in a git checkout.
if git rev-parse --git-dir >/dev/null 2>&1; then
  git config core.hooksPath tools/git-hooks
fi

# ccache, where the machine has it, keeps compiled objects across checkouts and runs.
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" >/dev/null
cmake --build build -j "$(nproc)"
