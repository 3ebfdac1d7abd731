#!/usr/bin/env bash
# Scale-out through the real processes: a vouchd with no slots of its own
# (--generators 0 --executors 0) and 1, 2 and 4 `vouchd worker` processes on
# this machine, each pinned to one CPU (worker i to CPU i mod nproc, so that
# each gets its share: on 2 cores, 4 workers share them two by two), each
# offering 1 generator and 1 executor slot. For each count it posts a burst
# of runs and one of generations at once and prints runs per minute and
# generations per minute, beside the ideal line (the 1-worker figure times
# the count) and the CPUs the workers had.
#
# Usage: bench/scaling_bench.sh        Env: COUNTS ("1 2 4"), RUNS_PER_WORKER (6),
#                                           GENERATIONS_PER_WORKER (3)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bench_work scaling-bench
WORKER_PIDS=()
stop_workers() {
  for pid in "${WORKER_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${WORKER_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  WORKER_PIDS=()
}
trap 'stop_workers; bench_cleanup' EXIT

bench_vouchd --generators 0 --executors 0 --workers-listen 127.0.0.1:0 \
  --generation-queue-ms 600000
WORKERS_AT="$(sed -n 's/^workers listening on //p' "$WORK/vouchd.out")"
[ -n "$WORKERS_AT" ] || { cat "$WORK/vouchd.err" >&2; exit 1; }
echo "vouchd on $ADDRESS, workers join on $WORKERS_AT" >&2

CPUS="$(nproc)"
printf '%-8s %-6s %14s %14s %18s %18s\n' workers cpus "runs/min" "ideal" "generations/min" "ideal"
for count in ${COUNTS:-1 2 4}; do
  for i in $(seq 0 $((count - 1))); do
    taskset -c $((i % CPUS)) "$ROOT/build/vouchd" worker --connect "$WORKERS_AT" \
      --generators 1 --executors 1 --warm-runners 1 --data "$WORK/worker-$count-$i" \
      --name "bench-$i" >/dev/null 2>"$WORK/worker-$count-$i.err" &
    WORKER_PIDS+=($!)
  done
  used=$((count < CPUS ? count : CPUS))
  KEY="$KEY" ADDRESS="$ADDRESS" WORKERS="$count" CPUS_USED="$used" \
    RUNS=$((count * ${RUNS_PER_WORKER:-6})) GENERATIONS=$((count * ${GENERATIONS_PER_WORKER:-3})) \
    STATE="$WORK/baseline.json" node "$ROOT/bench/scaling_bench.js"
  stop_workers
done
