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
#     has executors; the CPU per run, and where it went (process accounting).
#  4. runs per minute against runs posted at once (1 to 24), vouchd and cold
#     jest, drawn as a PNG with gnuplot (PLOT, default bench-runs.png here).
#
# Usage: bench/api_bench.sh [package ...]     (default: the list below)
# Env:   ROUNDS (latency samples, default 15), RUNS (throughput runs, default 24),
#        SWEEP (runs posted at once, default "1 2 4 8 16 24"), PLOT (the PNG),
#        VOUCHD (the binary, default build/vouchd: to compare two builds)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/results.sh"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PACKAGES=("$@")
if [ ${#PACKAGES[@]} -eq 0 ]; then
  PACKAGES=(ms bytes minimist escape-html camelcase@6 is-number fresh vary statuses)
fi
need=()
for p in acct gnuplot-nox; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
PLOT="$(realpath -m "${PLOT:-bench-runs.png}")"
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

VOUCH_BOOTSTRAP_KEY="$KEY" "${VOUCHD:-$ROOT/build/vouchd}" serve --data "$WORK/data" \
  --listen 127.0.0.1:0 --no-rate-limits >"$WORK/vouchd.out" 2>"$WORK/vouchd.err" &
VOUCHD_PID=$!
for _ in $(seq 100); do grep -q "listening on" "$WORK/vouchd.out" 2>/dev/null && break; sleep 0.1; done
ADDRESS="$(sed -n 's/^listening on //p' "$WORK/vouchd.out")"
[ -n "$ADDRESS" ] || { cat "$WORK/vouchd.err" >&2; exit 1; }
echo "vouchd on $ADDRESS" >&2

ROOT="$ROOT" WORK="$WORK" KEY="$KEY" ADDRESS="$ADDRESS" VOUCHD_PID="$VOUCHD_PID" ROUNDS="${ROUNDS:-15}" RUNS="${RUNS:-24}" PLOT="$PLOT" \
  node "$ROOT/bench/api_bench.js" "${PACKAGES[@]}"
