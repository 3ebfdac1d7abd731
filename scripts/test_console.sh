#!/usr/bin/env bash
# Runs the console's browser test (tests/console/console.test.mjs) against a live vouchd:
# installs Debian's chromium and the test's pinned npm packages (playwright-core, axe-core)
# when missing, starts build/vouchd of this checkout on a free port with a temporary data
# folder, a bootstrap admin key and webhooks allowed to loopback over http, runs the test
# (bounded: 300 s), stops vouchd. The test writes a screenshot of each page into
# VOUCH_CONSOLE_SHOTS (default: a temporary folder, removed after a pass;
# VOUCH_CONSOLE_SHOTS=docs/console refreshes the README's pictures).
#   VOUCHD=path/to/vouchd VOUCH_RUNNER=path/to/runner   use another build (default: this checkout's)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
VOUCHD=${VOUCHD:-$ROOT/build/vouchd}
VOUCH_RUNNER=${VOUCH_RUNNER:-$ROOT/runner}

source scripts/lib.sh
apt_install_missing test_console chromium
npm_install_locked test_console tests/console "the browser test's npm packages"

start_test_vouchd test_console "$VOUCHD" "$VOUCH_RUNNER"
echo "test_console: vouchd on http://$VOUCHD_ADDRESS (log: $VOUCHD_LOG)" >&2

SHOTS=${VOUCH_CONSOLE_SHOTS:-}
[[ -n $SHOTS ]] || SHOTS=$(mktemp -d) REMOVE_SHOTS=1
if VOUCH_URL="http://$VOUCHD_ADDRESS" VOUCH_ADMIN_KEY="$VOUCHD_KEY" VOUCH_CONSOLE_SHOTS="$SHOTS" timeout 300 \
  node --test --test-timeout=240000 tests/console/console.test.mjs; then
  rm -f "$VOUCHD_LOG"
  [[ -z ${REMOVE_SHOTS:-} ]] || rm -rf "$SHOTS"
  echo "test_console: the browser test passed" >&2
else
  echo "test_console: FAILED (vouchd log: $VOUCHD_LOG, screenshots: $SHOTS)" >&2
  exit 1
fi
