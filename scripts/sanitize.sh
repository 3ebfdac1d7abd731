#!/usr/bin/env bash
# The sanitizer build: vouchd, the tests and the libFuzzer targets built with
# clang, AddressSanitizer and UndefinedBehaviorSanitizer into ./build-sanitize.
# Runs the unit tests, the integration tests of the failure paths (slow
# clients, shutdown with work in flight, descriptors, the open-file limit)
# against the sanitized vouchd, then each fuzz target for FUZZ_SECONDS (25)
# on a copy of its corpus (tests/fuzz/corpus/<target>). Any finding fails;
# a fuzzer's crashing input is kept in build-sanitize/fuzz-findings/.
# Expects scripts/setup.sh to have run (the runner's node_modules).
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZ_SECONDS="${FUZZ_SECONDS:-25}"

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

# -O1 with line tables only: what the sanitizers' reports need, and about
# half the build time of RelWithDebInfo.
CC=clang CXX=clang++ cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=Sanitize \
  -DCMAKE_CXX_FLAGS_SANITIZE="-O1 -gline-tables-only" -DVOUCH_SANITIZE=ON >/dev/null
targets=(vouchd vouch_unit_tests vouch_webhook_unit_tests vouch_integration_tests)
for target in address_policy event_codecs http_request key_coding runner_protocol; do
  targets+=("${target}_fuzz")
done
cmake --build build-sanitize -j "$(nproc)" --target "${targets[@]}"

export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$PWD/tests/fuzz/ubsan.supp"

# Each binary is bounded (as ctest bounds the others): a hang fails this step
# with the binary's name instead of running into CI's time limit.
bounded() { timeout --kill-after=10 "$1" "${@:2}" || { echo "sanitize: $2 failed or ran over $1" >&2; exit 1; }; }
bounded 900 build-sanitize/tests/vouch_unit_tests
bounded 300 build-sanitize/tests/vouch_webhook_unit_tests
bounded 900 build-sanitize/tests/vouch_integration_tests \
  --gtest_filter='SlowClients.*:OpenFiles.*:GenerateTest.Shutdown*:SandboxBoundaryTest.Every*:ApiTest.*'

findings=build-sanitize/fuzz-findings
mkdir -p "$findings"
for target in address_policy event_codecs http_request key_coding runner_protocol; do
  work="$(mktemp -d)"
  cp -r "tests/fuzz/corpus/$target/." "$work/"
  echo "fuzz: $target for ${FUZZ_SECONDS} s on $(ls "$work" | wc -l) seeds" >&2
  if ! "build-sanitize/tests/fuzz/${target}_fuzz" -max_total_time="$FUZZ_SECONDS" -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/$target-" "$work" \
      2>"$findings/$target.log"; then
    tail -40 "$findings/$target.log" >&2
    echo "fuzz: $target found a failing input: $(ls "$findings/$target-"* 2>/dev/null)" >&2
    exit 1
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$findings/$target.log" | tr '\n' ' ' >&2
  echo >&2
  rm -rf "$work"
done
