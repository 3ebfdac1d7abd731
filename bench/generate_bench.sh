#!/usr/bin/env bash
# Measures test generation on small, real npm packages: coverage of the generated suites, tests
# kept and failing, generation time, and (for a few packages) the suites' mutation score.
# For each package: submit its main module (and the files it requires relatively) to
# runner/bin/generate.js, write the returned tests beside the sources, run Jest with coverage
# the way the run side does (coverage over every submitted source file, no --forceExit: a run that
# exits non-zero counts its suites as failing), then Stryker with its Jest runner on the packages
# named in MUTATE, mutating only the package's files. See bench/generate_bench.js.
#
# Usage: bench/generate_bench.sh [package[:module path] ...]     (default: the list below)
# Env:   BUDGET_MS   time budget per package job (default 20000)
#        MUTATE      packages to run Stryker on (default "ms bytes ini debounce"; "" skips it)
#        RERUNS      how many times each kept suite runs like a run, all to pass (default 5)
#        KEEP_DIR=1  keep the temporary folder and print its path
#        RUNNER_ROOT a checkout whose runner generates and runs the tests (default: this one)
#        LOAD=N      keep N busy loops running meanwhile (generation on a busy machine: the budget
#                    stretches with the CPU share the job gets; compare the table with LOAD=0)
#        WALL_LIMIT_MS  the generator's wall limit (default: its own, 1.5 times the budget). The budget
#                    stretches with the CPU share the job gets only up to it: on a machine busy
#                    with other jobs, a larger one (600000) measures what an idle one generates
#        STRYKER_CONCURRENCY  Stryker's test runners at once (default 1: the machine is shared)
#        STRYKER_TIMEOUT_MIN  minutes a Stryker run may take (default 15), or more once Stryker
#                    says how many mutants it made: STRYKER_SECONDS_PER_MUTANT (default 2) each, at
#                    most STRYKER_MAX_MIN (default 60). Its output goes to stryker.log in the run's
#                    folder (KEEP_DIR=1 keeps it), progress included.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PACKAGES=("$@")
if [ ${#PACKAGES[@]} -eq 0 ]; then
  PACKAGES=(ms bytes debounce ini fraction.js tinycolor2 eventemitter3 minimist lru-cache@6)
fi
export BUDGET_MS="${BUDGET_MS:-20000}"
export MUTATE="${MUTATE-ms bytes ini debounce}"
export RERUNS="${RERUNS:-5}"
WORK="$(mktemp -d /tmp/vouch-generate-bench-XXXXXX)"
[ "${KEEP_DIR:-}" != "1" ] || echo "keeping $WORK" >&2

LOADERS=()
stop_load() { for pid in "${LOADERS[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap 'stop_load; [ "${KEEP_DIR:-}" = "1" ] || rm -rf "$WORK"' EXIT

INSTALL=()
for spec in "${PACKAGES[@]}"; do INSTALL+=("${spec%%:*}"); done
echo "installing ${INSTALL[*]} into $WORK/packages" >&2
mkdir -p "$WORK/packages"
(cd "$WORK/packages" && npm init -y >/dev/null && npm install --no-audit --no-fund --ignore-scripts "${INSTALL[@]}" >/dev/null)

if [ -n "$MUTATE" ]; then
  # Stryker (9.x: 10 needs Node 22) and the Jest it drives (the runner's own version), outside
  # runner/package.json.
  JEST_VERSION="$(node -p "require('${RUNNER_ROOT:-$ROOT}/runner/package.json').dependencies.jest")"
  echo "installing Stryker into $WORK/tools" >&2
  mkdir -p "$WORK/tools"
  (cd "$WORK/tools" && npm init -y >/dev/null && npm install --no-audit --no-fund --ignore-scripts \
    @stryker-mutator/core@9.6.1 @stryker-mutator/jest-runner@9.6.1 "jest@$JEST_VERSION" >/dev/null)
fi

for _ in $(seq 1 "${LOAD:-0}"); do
  (while :; do :; done) &
  LOADERS+=($!)
done
[ "${LOAD:-0}" = "0" ] || echo "busy loops running: ${LOAD}" >&2
# The packages' code, the generator's calls into it and the generated tests run here outside any
# sandbox, so never as root: a generated call such as chmod('/dev/null', 1) would change the
# machine (it did once). As root, this step runs as nobody, in a work folder given to nobody.
as_bench_user=()
if [ "$(id -u)" -eq 0 ]; then
  chown -R nobody:nogroup "$WORK"
  as_bench_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all
    env HOME="$WORK" TMPDIR="$WORK")
fi
ROOT="${RUNNER_ROOT:-$ROOT}" WORK="$WORK" "${as_bench_user[@]}" \
  node "$ROOT/bench/generate_bench.js" "${PACKAGES[@]}"
