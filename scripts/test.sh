#!/usr/bin/env bash
# Sets everything up, then runs the whole test suite: the C++ unit and
# integration tests (ctest; it also lints docs/openapi.json with Redocly and
# checks every answer and webhook body the integration tests received against
# it: openapi_lint, openapi_validate), the runner's Node.js tests, the client
# libraries' tests against a live vouchd (scripts/test_clients.sh), the console in
# Debian's chromium against a live vouchd (scripts/test_console.sh), and the sanitizer
# build (unit and failure-path tests under ASan/UBSan, each fuzz target for
# a bounded time: scripts/sanitize.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir build --output-on-failure --timeout 600
(cd runner && npm test)
scripts/test_clients.sh
scripts/test_console.sh
scripts/sanitize.sh
