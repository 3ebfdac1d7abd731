#!/usr/bin/env bash
# Sets everything up, then runs the whole test suite: the C++ unit and
# integration tests (ctest) and the runner's Node.js tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir build --output-on-failure --timeout 600
(cd runner && npm test)
