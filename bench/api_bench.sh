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
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PACKAGES=("$@")
if [ ${#PACKAGES[@]} -eq 0 ]; then
  PACKAGES=(ms bytes minimist escape-html camelcase@6 is-number fresh vary statuses)
fi
apt_install_missing api-bench acct gnuplot-nox
PLOT="$(realpath -m "${PLOT:-bench-runs.png}")"
bench_work api-bench

echo "installing ${PACKAGES[*]} into $WORK/packages" >&2
mkdir -p "$WORK/packages"
(cd "$WORK/packages" && npm init -y >/dev/null &&
  npm install --no-audit --no-fund --ignore-scripts "${PACKAGES[@]}" >/dev/null)

bench_vouchd
echo "vouchd on $ADDRESS" >&2

ROOT="$ROOT" WORK="$WORK" KEY="$KEY" ADDRESS="$ADDRESS" VOUCHD_PID="$VOUCHD_PID" ROUNDS="${ROUNDS:-15}" RUNS="${RUNS:-24}" PLOT="$PLOT" \
  node "$ROOT/bench/api_bench.js" "${PACKAGES[@]}"
