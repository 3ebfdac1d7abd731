#!/usr/bin/env bash
# Whole npm packages through the API, as users submit them: for each package,
# `npm pack` its tarball from the registry, import it into a project of a
# locally started vouchd (POST /v1/projects/{id}/import, application/gzip),
# generate from the snapshot (POST /v1/tests/generate with no files), run the
# suite (POST /v1/tests/run), then print a table and the medians: answer codes,
# tests kept, statement and branch coverage measured by the run, the run's
# outcome, generation time, targets tested of found, and skipped files by
# reason.
#
# Usage: bench/package_sweep.sh [name@version ...]   (default: issue 26's list)
#        bench/package_sweep.sh --heldout            (the held-out set, bench/packages/heldout.txt)
# Env:   VOUCHD (the binary, default build/vouchd), RUNNER (the runner folder it
#        generates with, default this checkout's runner/), OUT (also write the
#        table as JSON to this file), SUITES (keep each kept suite and its
#        tarball in this folder, for bench/package_portability.sh), RUNS (run each
#        kept suite this many times, default 1; the 'passed' column counts the
#        runs that succeeded)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PACKAGES=("$@")
if [ "${1:-}" = --heldout ]; then
  mapfile -t PACKAGES < <(heldout_packages)
elif [ ${#PACKAGES[@]} -eq 0 ]; then
  PACKAGES=(lodash@4.17.21 minimatch@9.0.3 marked@4.3.0 mustache@4.2.0 ejs@3.1.9
    content-disposition@0.5.4 negotiator@0.6.3 accepts@1.3.8 type-is@1.6.18 depd@2.0.0
    string-width@4.2.3 wrap-ansi@7.0.0 cliui@8.0.1 ansi-styles@4.3.0 diff@5.1.0 tslib@2.6.2
    immer@10.0.3 superstruct@1.0.3 yup@1.3.3 date-fns@2.30.0 moment@2.29.4 rimraf@3.0.2
    mkdirp@1.0.4 chai@4.3.10 graceful-fs@4.2.11)
fi
bench_work package-sweep

mkdir -p "$WORK/tarballs"
for package in "${PACKAGES[@]}"; do
  (cd "$WORK/tarballs" && npm pack --silent "$package" >/dev/null) || echo "could not pack $package" >&2
done

bench_vouchd --runner "${RUNNER:-$ROOT/runner}"
echo "vouchd on $ADDRESS" >&2

KEY="$KEY" ADDRESS="$ADDRESS" OUT="${OUT:-}" SUITES="${SUITES:-}" node "$ROOT/bench/package_sweep.js" "$WORK/tarballs" "${PACKAGES[@]}"
