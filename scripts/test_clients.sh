#!/usr/bin/env bash
# Runs the client libraries' tests (clients/node, its `vouch` command included, clients/python,
# clients/java) against a live vouchd: installs what the clients need when it is missing (a JDK,
# Jackson and JUnit 5 from Debian; git and xmllint; the Node client's npm packages from its
# lockfile), starts build/vouchd of this checkout
# with its runner/ on a free port and a temporary data folder, runs the three suites, stops
# vouchd. Exits non-zero when any suite fails.
#   VOUCHD=path/to/vouchd VOUCH_RUNNER=path/to/runner   use another build (default: this checkout's)
#   CLIENTS="python node java"                           run only some suites
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
VOUCHD=${VOUCHD:-$ROOT/build/vouchd}
VOUCH_RUNNER=${VOUCH_RUNNER:-$ROOT/runner}
CLIENTS=${CLIENTS:-"python node java"}

source scripts/lib.sh
# git and xmllint: the vouch command's end-to-end test (a git repository, the JUnit schema).
apt_install_missing test_clients default-jdk-headless libjackson2-databind-java junit5 git libxml2-utils
if [[ " $CLIENTS " == *" node "* ]]; then
  npm_install_locked test_clients clients/node "the Node client's npm packages"
fi

start_test_vouchd test_clients "$VOUCHD" "$VOUCH_RUNNER" --import-allow-file-urls
export VOUCH_URL="http://$VOUCHD_ADDRESS" VOUCH_ADMIN_KEY="$VOUCHD_KEY"
echo "test_clients: vouchd on $VOUCH_URL (log: $VOUCHD_LOG)" >&2

failed=()
for client in $CLIENTS; do
  echo "=== clients/$client" >&2
  started=$SECONDS
  case $client in
    python) (cd clients/python && PYTHONPATH=$PWD python3 -m unittest discover -s tests -v) || failed+=(python) ;;
    node) (cd clients/node && npm test --silent) || failed+=(node) ;;
    java) clients/java/build.sh test || failed+=(java) ;;
    *) echo "test_clients: unknown client $client" >&2; failed+=("$client") ;;
  esac
  echo "=== clients/$client: $((SECONDS - started)) s" >&2
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "test_clients: FAILED: ${failed[*]} (vouchd log: $VOUCHD_LOG)" >&2
  exit 1
fi
rm -f "$VOUCHD_LOG"
echo "test_clients: all client tests passed" >&2
