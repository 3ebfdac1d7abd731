#!/usr/bin/env bash
# Do kept suites pass outside vouchd? For each suite that bench/package_sweep.sh kept (SUITES=DIR),
# unpack the package's tarball into a fresh folder, install its dependencies from the registry
# (`npm install --ignore-scripts` of its `dependencies`: no package code runs), write the generated files
# beside its sources, and run a plain Jest there, once with Jest 29 and once with Jest 30 (pinned
# below, installed into this script's temporary folder, never globally), with the Babel packages
# the returned jest.config.js names on NODE_PATH, as runner/README.md says to run them.
#
# The generated tests and the package's code run outside any sandbox here, so never as root: as
# root, every Jest run is `nobody` (setpriv) in a folder given to nobody, with its own HOME and
# TMPDIR. (A generated test run as root once changed the host's /dev/null.)
#
# Usage: bench/package_portability.sh SUITES_DIR
# Prints one line per package and Jest version (passed/failed tests, exit code) and the pass rates.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SUITES="${1:?usage: bench/package_portability.sh SUITES_DIR (from SUITES=DIR bench/package_sweep.sh)}"
JEST_VERSIONS=(29.7.0 30.2.0)
WORK="$(mktemp -d /tmp/vouch-portability-XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
# Jest and Babel stay root's, readable by the unprivileged user that runs the suites.
chmod 755 "$WORK"

babel_packages=()
for name in @babel/core @babel/plugin-transform-modules-commonjs @babel/preset-typescript; do
  babel_packages+=("$name@$(node -p "require('$ROOT/runner/package.json').dependencies['$name']")")
done
for version in "${JEST_VERSIONS[@]}"; do
  echo "installing jest@$version into $WORK/jest-$version" >&2
  mkdir -p "$WORK/jest-$version"
  (cd "$WORK/jest-$version" && npm init -y >/dev/null &&
    npm install --no-audit --no-fund --ignore-scripts "jest@$version" "babel-jest@$version" \
      "${babel_packages[@]}" >/dev/null)
done

as_user=()
if [ "$(id -u)" -eq 0 ]; then
  as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all)
fi

runs=0
passed=0
declare -A passed_by_version=()
for suite in "$SUITES"/*/; do
  [ -f "$suite/package.tgz" ] || continue
  spec="$(cat "$suite/spec")"
  base="$WORK/packages/$(basename "$suite")"
  mkdir -p "$base/package"
  # The tarball's one top folder (`package/` for most, `ejs-v3.1.9/` for some) becomes package/.
  tar -xzf "$suite/package.tgz" -C "$base/package" --strip-components=1
  # The package's runtime dependencies, as a user's `npm install` gives them, installed from a
  # package.json that holds only those (npm resolves devDependencies even when it omits them, and
  # some name git repositories), then moved into the package's folder.
  mkdir -p "$base/deps"
  node -e "const p = require('$base/package/package.json');
    const deps = p.dependencies && typeof p.dependencies === 'object' && !Array.isArray(p.dependencies) ? p.dependencies : {};
    require('fs').writeFileSync('$base/deps/package.json', JSON.stringify({ name: 'deps', private: true, dependencies: deps }));"
  if ! (cd "$base/deps" && npm install --ignore-scripts --no-audit --no-fund --no-package-lock >/dev/null 2>&1); then
    echo "$spec: npm install of its dependencies failed" >&2
  fi
  [ ! -d "$base/deps/node_modules" ] || mv "$base/deps/node_modules" "$base/package/node_modules"
  cp -a "$suite/tests/." "$base/package/"
  for version in "${JEST_VERSIONS[@]}"; do
    folder="$WORK/runs/$(basename "$suite")-$version"
    mkdir -p "$folder"
    cp -a "$base/package/." "$folder/"
    mkdir -p "$folder/.home" "$folder/.tmp"
    [ "$(id -u)" -ne 0 ] || chown -R nobody:nogroup "$folder"
    code=0
    (cd "$folder" && "${as_user[@]}" env -i PATH="$PATH" HOME="$folder/.home" TMPDIR="$folder/.tmp" \
      NODE_PATH="$WORK/jest-$version/node_modules" \
      node "$WORK/jest-$version/node_modules/jest/bin/jest.js" --ci --json \
      --outputFile="$folder/.tmp/result.json" --cacheDirectory="$folder/.tmp/jest-cache" \
      >"$folder/.tmp/out.txt" 2>&1) || code=$?
    counts="$(node -e "
      try { const r = require('$folder/.tmp/result.json');
        console.log(r.numPassedTests + ' passed, ' + r.numFailedTests + ' failed, ' + r.numFailedTestSuites + ' suites failed'); }
      catch { console.log('no result'); }")"
    runs=$((runs + 1))
    if [ "$code" -eq 0 ]; then
      passed=$((passed + 1))
      passed_by_version[$version]=$((${passed_by_version[$version]:-0} + 1))
      echo "$spec jest@$version: pass ($counts)"
    else
      echo "$spec jest@$version: FAIL exit $code ($counts)"
      { grep -m 5 -E "●|Cannot find" "$folder/.tmp/out.txt" || tail -n 5 "$folder/.tmp/out.txt"; } |
        sed 's/^/    /'
    fi
  done
done
packages=$((runs / ${#JEST_VERSIONS[@]}))
echo
for version in "${JEST_VERSIONS[@]}"; do
  echo "jest@$version: ${passed_by_version[$version]:-0}/$packages kept suites pass"
done
echo "all: $passed/$runs runs pass"
