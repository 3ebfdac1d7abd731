#!/usr/bin/env bash
# The sanitizer build: vouchd, the unit tests and the libFuzzer targets built with clang,
# AddressSanitizer and UndefinedBehaviorSanitizer into ./build-sanitize. Runs the unit tests, the
# integration tests of the failure paths (slow clients, shutdown with work in flight, descriptors,
# the open-file limit) against the sanitized vouchd, then each fuzz target for FUZZ_SECONDS (25)
# on a copy of its corpus (tests/fuzz/corpus/<target>), two at a time. Any finding fails; a
# fuzzer's crashing input is kept in build-sanitize/fuzz-findings/.
#   scripts/sanitize.sh          build, then test
#   scripts/sanitize.sh build    only build (scripts/test.sh compiles while other stages run)
#   scripts/sanitize.sh test     only test what was built
# The integration tests are those of ./build (they speak HTTP to whichever vouchd $VOUCHD names),
# so scripts/setup.sh must have run (it also installs the runner's node_modules).
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZ_SECONDS="${FUZZ_SECONDS:-25}"
FUZZ_TARGETS=(address_policy event_codecs http_request key_coding runner_protocol)
what="${1:-all}"

build() {
  missing=()
  command -v clang++ >/dev/null || missing+=(clang)
  [ -n "$(ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ] ||
    missing+=(libclang-rt-14-dev)
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "sanitize: installing ${missing[*]}" >&2
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" >&2
  fi

  # -O1 with line tables only: what the sanitizers' reports need, and about half the build time
  # of RelWithDebInfo. Only what the tests below run is built (vouchd brings vouch-sandbox).
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  CC=clang CXX=clang++ cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=Sanitize \
    -DCMAKE_CXX_FLAGS_SANITIZE="-O1 -gline-tables-only" -DVOUCH_SANITIZE=ON "${launcher[@]}" \
    >/dev/null
  targets=(vouchd vouch_unit_tests vouch_webhook_unit_tests)
  for target in "${FUZZ_TARGETS[@]}"; do targets+=("${target}_fuzz"); done
  cmake --build build-sanitize -j "$(nproc)" --target "${targets[@]}"
}

# One fuzz target for FUZZ_SECONDS on a copy of its corpus; its log and any crashing input go to
# build-sanitize/fuzz-findings/.
fuzz() {
  local target=$1 findings=build-sanitize/fuzz-findings work
  work="$(mktemp -d)"
  cp -r "tests/fuzz/corpus/$target/." "$work/"
  echo "fuzz: $target for ${FUZZ_SECONDS} s on $(ls "$work" | wc -l) seeds" >&2
  if ! "build-sanitize/tests/fuzz/${target}_fuzz" -max_total_time="$FUZZ_SECONDS" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/$target-" "$work" \
    2>"$findings/$target.log"; then
    tail -40 "$findings/$target.log" >&2
    echo "fuzz: $target found a failing input: $(ls "$findings/$target-"* 2>/dev/null)" >&2
    rm -rf "$work"
    return 1
  fi
  echo "fuzz: $target: $(grep -E "stat::number_of_executed_units|stat::peak_rss_mb" \
    "$findings/$target.log" | tr '\n' ' ')" >&2
  rm -rf "$work"
}

run_tests() {
  export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=1"
  export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$PWD/tests/fuzz/ubsan.supp"

  # Each binary is bounded (as ctest bounds the others): a hang fails this step with the
  # binary's name instead of running into CI's time limit.
  bounded() {
    timeout --kill-after=10 "$1" "${@:2}" || { echo "sanitize: $2 failed or ran over $1" >&2; exit 1; }
  }
  bounded 900 build-sanitize/tests/vouch_unit_tests
  bounded 300 build-sanitize/tests/vouch_webhook_unit_tests
  VOUCHD="$PWD/build-sanitize/vouchd" bounded 900 build/tests/vouch_integration_tests \
    --gtest_filter='SlowClients.*:OpenFiles.*:GenerateTest.Shutdown*:SandboxBoundaryTest.Every*:ApiTest.*'

  # The fuzzers are single-threaded: two at a time on two cores.
  mkdir -p build-sanitize/fuzz-findings
  export -f fuzz
  export FUZZ_SECONDS
  printf '%s\n' "${FUZZ_TARGETS[@]}" | xargs -P "$(nproc)" -I{} bash -c 'fuzz "$@"' _ {}
}

case $what in
  build) build ;;
  test) run_tests ;;
  all) build && run_tests ;;
  *) echo "usage: scripts/sanitize.sh [build|test]" >&2; exit 2 ;;
esac
