#!/usr/bin/env bash
# Mutation score of generated suites on held-out modules: single-file (or few-file) npm modules
# of the kinds generation was not tuned on by name: a country table, pluralization rules, a
# callback key-value store that persists to a file, event emitters, a JSON5 parser, a cookie
# parser, an HTTP status table, a case converter. For each: generate tests for its main module,
# run them with Jest (coverage), then Stryker 9 with its Jest runner, mutating only the module's
# files (bench/generate_bench.sh does the work; Stryker is installed in the bench's temporary
# folder, never in runner/package.json). Prints the table, the medians, and the modules with
# 90% or more statement coverage whose score is under 50%.
#
# Usage: bench/mutation_score.sh [package[:module path] ...]   (default: the list below)
#        bench/mutation_score.sh --heldout   (modules of issue 26's held-out packages,
#                                             bench/packages/heldout.txt: HELDOUT_MODULES below)
# Env:   RUNNER_ROOT  a checkout whose runner generates the tests (default: this one); give an
#                     older commit's checkout to measure "before" on the same machine
#        BUDGET_MS, RERUNS, KEEP_DIR, LOAD, WALL_LIMIT_MS as for generate_bench.sh
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# Nine modules of the held-out packages, chosen with the set (before any was generated): the main
# module where it is CommonJS and small enough for Stryker at concurrency 1 (a few hundred
# mutants), else one module of the package's own (semver's SemVer class).
HELDOUT_MODULES=(escape-html@1.0.3 fast-deep-equal@3.1.3 p-limit@3.1.0 mime-types@2.1.35
  path-to-regexp@6.3.0 debug@4.3.7 qs@6.13.0 nanoid@3.3.7 semver@7.6.3:classes/semver.js)
PACKAGES=("$@")
if [ "${1:-}" = --heldout ]; then
  PACKAGES=("${HELDOUT_MODULES[@]}")
elif [ ${#PACKAGES[@]} -eq 0 ]; then
  PACKAGES=(country-list@2.3.0 pluralize@8.0.0 dirty@1.1.3 tiny-emitter@2.1.0 component-emitter@1.3.1
    json5@2.2.3 cookie@0.5.0 statuses@2.0.1 camelcase@6.3.0)
fi
names=()
for spec in "${PACKAGES[@]}"; do
  spec="${spec%%:*}"
  names+=("${spec%@*}")
done
export MUTATE="${names[*]}"
export RERUNS="${RERUNS:-2}"
exec "$HERE/generate_bench.sh" "${PACKAGES[@]}"
