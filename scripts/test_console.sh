#!/usr/bin/env bash
# Runs the console's browser test (tests/console/console.test.mjs) against a live vouchd:
# installs Debian's chromium and the test's pinned npm packages (playwright-core, axe-core)
# when missing, starts build/vouchd of this checkout on a free port with a temporary data
# folder, a bootstrap admin key and webhooks allowed to loopback over http, runs the test
# (bounded: 300 s), stops vouchd. The test writes a screenshot of each page to docs/console/.
#   VOUCHD=path/to/vouchd VOUCH_RUNNER=path/to/runner   use another build (default: this checkout's)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
VOUCHD=${VOUCHD:-$ROOT/build/vouchd}
VOUCH_RUNNER=${VOUCH_RUNNER:-$ROOT/runner}

source scripts/lib.sh
apt_install_missing test_console chromium
if [ ! -d tests/console/node_modules ] ||
  [ tests/console/package-lock.json -nt tests/console/node_modules/.package-lock.json ]; then
  echo "test_console: installing the browser test's npm packages" >&2
  (cd tests/console && npm ci --no-audit --no-fund --loglevel=error >&2)
fi

[ -x "$VOUCHD" ] || { echo "test_console: no $VOUCHD (run scripts/setup.sh)" >&2; exit 1; }
DATA=$(mktemp -d)
LOG=$DATA.log
OUT=$DATA.out
KEY="vk_$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"
VOUCH_BOOTSTRAP_KEY=$KEY "$VOUCHD" serve --data "$DATA" --listen 127.0.0.1:0 \
  --runner "$VOUCH_RUNNER" --webhook-allow-http --webhook-allow-cidr 127.0.0.0/8 \
  --webhook-retry-scale 0.001 >"$OUT" 2>"$LOG" &
VOUCHD_PID=$!
cleanup() {
  kill -TERM "$VOUCHD_PID" 2>/dev/null && wait "$VOUCHD_PID" 2>/dev/null || true
  rm -rf "$DATA" "$OUT"
}
trap cleanup EXIT
for _ in $(seq 1 300); do
  grep -q '^listening on ' "$OUT" 2>/dev/null && break
  kill -0 "$VOUCHD_PID" 2>/dev/null || { echo "test_console: vouchd exited" >&2; tail -20 "$LOG" >&2; exit 1; }
  sleep 0.1
done
ADDRESS=$(sed -n 's/^listening on //p' "$OUT" | head -1)
[ -n "$ADDRESS" ] || { echo "test_console: vouchd did not start" >&2; tail -20 "$LOG" >&2; exit 1; }
echo "test_console: vouchd on http://$ADDRESS (log: $LOG)" >&2

if VOUCH_URL="http://$ADDRESS" VOUCH_ADMIN_KEY="$KEY" timeout 300 \
  node --test --test-timeout=240000 tests/console/console.test.mjs; then
  rm -f "$LOG"
  echo "test_console: the browser test passed" >&2
else
  echo "test_console: FAILED (vouchd log: $LOG)" >&2
  exit 1
fi
