# Sourced by the bench scripts right after `set -euo pipefail` (not run on its own): from there
# on, everything the script prints also goes to bench/results/<UTC date>-<script>.txt, so each run
# leaves a dated record beside the earlier ones. BENCH_RESULTS=0 turns it off (a trial run).
if [ "${BENCH_RESULTS:-1}" != 0 ]; then
  bench_results_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/results"
  mkdir -p "$bench_results_dir"
  bench_results_file="$bench_results_dir/$(date -u +%F)-$(basename "$0" .sh).txt"
  echo "# $(basename "$0") $*: $(date -u '+%F %T') UTC, $(nproc) cores, $(uname -r)" \
    >>"$bench_results_file"
  echo "bench: results also go to $bench_results_file" >&2
  exec > >(tee -a "$bench_results_file") 2>&1
fi
