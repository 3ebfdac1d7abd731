#!/usr/bin/env bash
# Runs the client libraries' tests (clients/node, its `vouch` command included, clients/python,
# clients/java) against a live vouchd: installs what the clients need when it is missing (a JDK,
# Jackson and JUnit 5 from Debian; git and xmllint; the Node client's npm packages from its
# lockfile), starts build/vouchd of this checkout
# with its runner/ on a free port and a temporary data folder, runs the three suites, stops
# vouchd. Exits non-zero when any suite fails.
#   VOUCHD=path/to/vouchd VOUCH_RUNNER=path/to/runner   use another build (default: this checkout's)
#   CLIENTS="python node java"                           run only some suites
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
VOUCHD=${VOUCHD:-$ROOT/build/vouchd}
VOUCH_RUNNER=${VOUCH_RUNNER:-$ROOT/runner}
CLIENTS=${CLIENTS:-"python node java"}

source scripts/lib.sh
# git and xmllint: the vouch command's end-to-end test (a git repository, the JUnit schema).
apt_install_missing test_clients default-jdk-headless libjackson2-databind-java junit5 git libxml2-utils
if [[ " $CLIENTS " == *" node "* ]] &&
  { [ ! -d clients/node/node_modules ] ||
    [ clients/node/package-lock.json -nt clients/node/node_modules/.package-lock.json ]; }; then
  echo "test_clients: installing the Node client's npm packages" >&2
  (cd clients/node && npm ci --no-audit --no-fund --loglevel=error >&2)
fi

[ -x "$VOUCHD" ] || { echo "test_clients: no $VOUCHD (run scripts/setup.sh)" >&2; exit 1; }
DATA=$(mktemp -d)
LOG=$DATA.log
OUT=$DATA.out
KEY="vk_$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"
VOUCH_BOOTSTRAP_KEY=$KEY "$VOUCHD" serve --data "$DATA" --listen 127.0.0.1:0 \
  --runner "$VOUCH_RUNNER" --webhook-allow-http --webhook-allow-cidr 127.0.0.0/8 \
  --webhook-retry-scale 0.001 --import-allow-file-urls >"$OUT" 2>"$LOG" &
VOUCHD_PID=$!
cleanup() {
  kill -TERM "$VOUCHD_PID" 2>/dev/null && wait "$VOUCHD_PID" 2>/dev/null || true
  rm -rf "$DATA" "$OUT"
}
trap cleanup EXIT
for _ in $(seq 1 300); do
  grep -q '^listening on ' "$OUT" 2>/dev/null && break
  kill -0 "$VOUCHD_PID" 2>/dev/null || { echo "test_clients: vouchd exited" >&2; tail -20 "$LOG" >&2; exit 1; }
  sleep 0.1
done
ADDRESS=$(sed -n 's/^listening on //p' "$OUT" | head -1)
[ -n "$ADDRESS" ] || { echo "test_clients: vouchd did not start" >&2; tail -20 "$LOG" >&2; exit 1; }
export VOUCH_URL="http://$ADDRESS" VOUCH_ADMIN_KEY="$KEY"
echo "test_clients: vouchd on $VOUCH_URL (log: $LOG)" >&2

failed=()
for client in $CLIENTS; do
  echo "=== clients/$client" >&2
  started=$SECONDS
  case $client in
    python) (cd clients/python && PYTHONPATH=$PWD python3 -m unittest discover -s tests -v) || failed+=(python) ;;
    node) (cd clients/node && npm test --silent) || failed+=(node) ;;
    java) clients/java/build.sh test || failed+=(java) ;;
    *) echo "test_clients: unknown client $client" >&2; failed+=("$client") ;;
  esac
  echo "=== clients/$client: $((SECONDS - started)) s" >&2
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "test_clients: FAILED: ${failed[*]} (vouchd log: $LOG)" >&2
  exit 1
fi
rm -f "$LOG"
echo "test_clients: all client tests passed" >&2
