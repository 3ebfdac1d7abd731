#!/usr/bin/env bash
# Sets everything up, then runs the whole test suite, one stage at a time, and prints how long
# each took: the lint of the Node.js code (scripts/lint.sh); the C++ unit and integration tests
# (ctest; it also lints docs/openapi.json with Redocly and checks every answer and webhook body
# the integration tests received against it: openapi_lint, openapi_validate); the runner's
# Node.js tests; the client libraries' tests against a live vouchd (scripts/test_clients.sh);
# the web console's browser tests (scripts/test_console.sh);
# and the sanitizer build (unit and failure-path tests under ASan/UBSan, each fuzz target for a
# bounded time: scripts/sanitize.sh). A new stage is a script under scripts/ and one `stage`
# line here.
#
# The sanitizer tree compiles in the background, at a lower priority, while the stages before
# it run: they spend much of their time waiting for vouchd, its runners and node.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
trap stage_stop_all EXIT

stage setup scripts/setup.sh
stage lint scripts/lint.sh
stage_start sanitize-build nice -n 10 scripts/sanitize.sh build
stage ctest ctest --test-dir build --output-on-failure --timeout 600
stage runner bash -c 'cd runner && npm test'
stage clients scripts/test_clients.sh
stage console scripts/test_console.sh
stage_wait sanitize-build
stage sanitize scripts/sanitize.sh test
stage_summary
