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
)

source scripts/lib.sh
# Node 18 or newer; Debian's own nodejs when the machine has none or an older one.
if ! command -v node >/dev/null || [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 18 ]; then
  APT_PACKAGES+=(nodejs npm)
fi
apt_install_missing setup "${APT_PACKAGES[@]}"

# The runner's packages, exactly as pinned in its lockfile. `npm install` (not
# `npm ci`): npm 11 writes a lockfile without other platforms' optional
# bindings (unrs-resolver's) and then `npm ci` refuses that same lockfile as
# out of sync. `npm install` installs the locked versions all the same.
if [ ! -d runner/node_modules ] || [ runner/package-lock.json -nt runner/node_modules/.package-lock.json ]; then
  echo "setup: installing the runner's npm packages" >&2
  (cd runner && npm install --no-audit --no-fund --loglevel=error >&2)
fi

# The OpenAPI checks' packages (Redocly's linter, Ajv), pinned in tests/openapi/package-lock.json.
if [ ! -d tests/openapi/node_modules ] ||
  [ tests/openapi/package-lock.json -nt tests/openapi/node_modules/.package-lock.json ]; then
  echo "setup: installing the OpenAPI checks' npm packages" >&2
  (cd tests/openapi && npm install --no-audit --no-fund --loglevel=error >&2)
fi

# The console's vendored libraries (Preact with htm, Prism), pinned in console/package-lock.json;
# the build compiles them into vouchd.
if [ ! -d console/node_modules ] ||
  [ console/package-lock.json -nt console/node_modules/.package-lock.json ]; then
  echo "setup: installing the console's npm packages" >&2
  (cd console && npm ci --no-audit --no-fund --loglevel=error >&2)
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)"
