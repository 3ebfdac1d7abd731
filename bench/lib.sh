# Sourced by every bench script as its first command (not run on its own): strict mode, a dated
# record of the run, and the steps the scripts share.
set -euo pipefail

# The checkout the script belongs to.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# From here on, everything the script prints also goes to bench/results/<UTC date>-<script>.txt,
# so each run leaves a dated record beside the earlier ones. BENCH_RESULTS=0 turns it off (a
# trial run).
if [ "${BENCH_RESULTS:-1}" != 0 ]; then
  bench_results_dir="$ROOT/bench/results"
  mkdir -p "$bench_results_dir"
  bench_results_file="$bench_results_dir/$(date -u +%F)-$(basename "$0" .sh).txt"
  echo "# $(basename "$0") $*: $(date -u '+%F %T') UTC, $(nproc) cores, $(uname -r)" \
    >>"$bench_results_file"
  echo "bench: results also go to $bench_results_file" >&2
  exec > >(tee -a "$bench_results_file") 2>&1
fi

# apt_install_missing TAG PACKAGE... and the other helpers of the scripts.
source "$ROOT/scripts/lib.sh"

# bench_work NAME: WORK, a fresh folder /tmp/vouch-NAME-*, and KEY, a bootstrap API key for
# vouchd. At exit, bench_cleanup stops the processes in BENCH_PIDS and removes WORK.
BENCH_PIDS=()
bench_work() {
  WORK="$(mktemp -d "/tmp/vouch-$1-XXXXXX")"
  KEY="vk_bench_$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')"
  trap bench_cleanup EXIT
}
bench_cleanup() {
  local pid
  for pid in "${BENCH_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${BENCH_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}

# bench_vouchd [OPTION...]: starts `vouchd serve` (VOUCHD, default build/vouchd) with its data in
# $WORK/data (its master key of webhook secrets in $WORK/secrets.key), KEY as its bootstrap key,
# a free port, no rate limits and the OPTIONs; waits until
# it listens. Sets VOUCHD_PID (also in BENCH_PIDS) and ADDRESS; its output is in
# $WORK/vouchd.out and vouchd.err. Exits with vouchd's errors when it does not start.
bench_vouchd() {
  VOUCH_BOOTSTRAP_KEY="$KEY" "${VOUCHD:-$ROOT/build/vouchd}" serve --data "$WORK/data" \
    --secrets-key-file "$WORK/secrets.key" --listen 127.0.0.1:0 --no-rate-limits "$@" \
    >"$WORK/vouchd.out" 2>"$WORK/vouchd.err" &
  VOUCHD_PID=$!
  BENCH_PIDS+=("$VOUCHD_PID")
  for _ in $(seq 300); do
    grep -q "^listening on" "$WORK/vouchd.out" 2>/dev/null && break
    sleep 0.1
  done
  ADDRESS="$(sed -n 's/^listening on //p' "$WORK/vouchd.out")"
  [ -n "$ADDRESS" ] || { cat "$WORK/vouchd.err" >&2; exit 1; }
}

# heldout_packages: the `name@version` of each package in bench/packages/heldout.txt, issue 26's
# held-out set (the first word of each line that is not a comment).
heldout_packages() {
  sed -e 's/#.*//' "$ROOT/bench/packages/heldout.txt" | awk 'NF { print $1 }'
}

# wrk_post_script FILE KEY BODY: writes FILE, a wrk script that POSTs the JSON BODY with KEY as
# its bearer key.
wrk_post_script() {
  cat >"$1" <<LUA
wrk.method = "POST"
wrk.headers["Authorization"] = "Bearer $2"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '$3'
LUA
}
