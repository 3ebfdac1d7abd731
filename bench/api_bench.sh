#!/usr/bin/env bash
# Benchmarks generation and runs THROUGH THE API of a real vouchd (built by
# scripts/setup.sh), each against its baseline measured in the same script:
#
#  1. generation: for small popular npm packages, POST /v1/tests/generate with
#     the main module (and the files it requires), then POST /v1/tests/run on
#     the result; per module: coverage measured by the run, tests kept, tests
#     failing (must be 0), generation time; and the medians.
#  2. run latency: POST /v1/tests/run → status "completed", against
#     `node jest.js --coverage --ci` on the same files in a folder (cold jest).
#  3. run throughput: RUNS runs posted at once (the pool busy), runs per
#     minute, against cold jest on the same files, as many at once as vouchd
#     has executors.
#
# Usage: bench/api_bench.sh [package ...]     (default: the list below)
# Env:   ROUNDS (latency samples, default 15), RUNS (throughput runs, default 24)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PACKAGES=("$@")
if [ ${#PACKAGES[@]} -eq 0 ]; then
  PACKAGES=(ms bytes minimist escape-html camelcase@6 is-number fresh vary statuses)
fi
WORK="$(mktemp -d /tmp/vouch-api-bench-XXXXXX)"
KEY="vk_bench_$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')"
cleanup() {
  [ -n "${VOUCHD_PID:-}" ] && kill "$VOUCHD_PID" 2>/dev/null && wait "$VOUCHD_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "installing ${PACKAGES[*]} into $WORK/packages" >&2
mkdir -p "$WORK/packages"
(cd "$WORK/packages" && npm init -y >/dev/null &&
  npm install --no-audit --no-fund --ignore-scripts "${PACKAGES[@]}" >/dev/null)

VOUCH_BOOTSTRAP_KEY="$KEY" "$ROOT/build/vouchd" serve --data "$WORK/data" \
  --listen 127.0.0.1:0 --no-rate-limits >"$WORK/vouchd.out" 2>"$WORK/vouchd.err" &
VOUCHD_PID=$!
for _ in $(seq 100); do grep -q "listening on" "$WORK/vouchd.out" 2>/dev/null && break; sleep 0.1; done
ADDRESS="$(sed -n 's/^listening on //p' "$WORK/vouchd.out")"
[ -n "$ADDRESS" ] || { cat "$WORK/vouchd.err" >&2; exit 1; }
echo "vouchd on $ADDRESS" >&2

ROOT="$ROOT" WORK="$WORK" KEY="$KEY" ADDRESS="$ADDRESS" VOUCHD_PID="$VOUCHD_PID" ROUNDS="${ROUNDS:-15}" RUNS="${RUNS:-24}" \
  node "$ROOT/bench/api_bench.js" "${PACKAGES[@]}"
