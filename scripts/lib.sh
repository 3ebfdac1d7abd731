# Shell helpers the scripts source (not run on its own).

# apt_install_missing TAG PACKAGE...: installs those of the Debian packages that are not
# installed yet (with sudo unless root), saying so on stderr under TAG; does nothing when all
# are there, so scripts can call it on every run.
apt_install_missing() {
  local tag=$1
  shift
  local missing=() package
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$package")
  done
  [ "${#missing[@]}" -gt 0 ] || return 0
  echo "$tag: installing ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# npm_install_locked TAG DIR WHAT [COMMAND]: installs DIR's npm packages as its
# package-lock.json pins them (npm COMMAND: ci, the default, or install), when DIR has no
# node_modules or its lockfile is newer than what was installed; says so under TAG.
npm_install_locked() {
  local tag=$1 dir=$2 what=$3 command=${4:-ci}
  local installed="$dir/node_modules/.package-lock.json"
  [ -f "$installed" ] && [ ! "$dir/package-lock.json" -nt "$installed" ] && return 0
  echo "$tag: installing $what" >&2
  (cd "$dir" && npm "$command" --no-audit --no-fund --loglevel=error >&2)
}

# start_test_vouchd TAG VOUCHD RUNNER [ARG...]: starts `VOUCHD serve` with the runner folder
# RUNNER on a free port of 127.0.0.1, a temporary folder holding its data folder and its master
# key of webhook secrets, a fresh admin key and webhooks allowed to loopback over http, plus
# ARGs, and waits until it listens. Sets VOUCHD_ADDRESS (host:port), VOUCHD_KEY, VOUCHD_DATA and
# VOUCHD_LOG (its stderr, left for a failure's diagnosis), and an EXIT trap (stop_test_vouchd)
# that stops it and removes the temporary folder.
start_test_vouchd() {
  local tag=$1 vouchd=$2 runner=$3 out
  shift 3
  [ -x "$vouchd" ] || { echo "$tag: no $vouchd (run scripts/setup.sh)" >&2; exit 1; }
  VOUCHD_WORK=$(mktemp -d)
  VOUCHD_DATA=$VOUCHD_WORK/data
  VOUCHD_LOG=$VOUCHD_WORK.log
  out=$VOUCHD_WORK/vouchd.out
  VOUCHD_KEY="vk_$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"
  VOUCH_BOOTSTRAP_KEY=$VOUCHD_KEY "$vouchd" serve --data "$VOUCHD_DATA" --listen 127.0.0.1:0 \
    --secrets-key-file "$VOUCHD_WORK/secrets.key" \
    --runner "$runner" --webhook-allow-http --webhook-allow-cidr 127.0.0.0/8 \
    --webhook-retry-scale 0.001 "$@" >"$out" 2>"$VOUCHD_LOG" &
  VOUCHD_PID=$!
  trap stop_test_vouchd EXIT
  for _ in $(seq 1 300); do
    grep -q '^listening on ' "$out" 2>/dev/null && break
    kill -0 "$VOUCHD_PID" 2>/dev/null ||
      { echo "$tag: vouchd exited" >&2; tail -20 "$VOUCHD_LOG" >&2; exit 1; }
    sleep 0.1
  done
  VOUCHD_ADDRESS=$(sed -n 's/^listening on //p' "$out" | head -1)
  [ -n "$VOUCHD_ADDRESS" ] ||
    { echo "$tag: vouchd did not start" >&2; tail -20 "$VOUCHD_LOG" >&2; exit 1; }
}
stop_test_vouchd() {
  kill -TERM "$VOUCHD_PID" 2>/dev/null && wait "$VOUCHD_PID" 2>/dev/null || true
  rm -rf "$VOUCHD_WORK"
}

# stage NAME COMMAND...: runs one stage of scripts/test.sh and says how long it took on stderr
# ("=== NAME: 42 s"); a failing stage stops the script with its name. The times are gathered
# for stage_summary.
STAGE_TIMES=()
stage() {
  local name=$1 started=$SECONDS status=0
  shift
  echo "=== $name" >&2
  "$@" || status=$?
  STAGE_TIMES+=("$name $((SECONDS - started))")
  if [ "$status" -ne 0 ]; then
    echo "=== $name: FAILED (exit $status) after $((SECONDS - started)) s" >&2
    exit "$status"
  fi
  echo "=== $name: $((SECONDS - started)) s" >&2
}

# stage_start NAME COMMAND...: starts a stage in the background, in a process group of its own,
# its output in build/stage-NAME.log; stage_wait NAME waits for it, prints that output and fails
# as it failed; stage_stop_all (an EXIT trap) ends what still runs when the script stops early.
declare -A STAGE_PIDS STAGE_STARTED
stage_start() {
  local name=$1
  shift
  mkdir -p build
  echo "=== $name (in the background: build/stage-$name.log)" >&2
  STAGE_STARTED[$name]=$SECONDS
  setsid "$@" >"build/stage-$name.log" 2>&1 &
  STAGE_PIDS[$name]=$!
}
stage_wait() {
  local name=$1 status=0 took
  wait "${STAGE_PIDS[$name]}" || status=$?
  unset "STAGE_PIDS[$name]"
  cat "build/stage-$name.log" >&2
  took=$((SECONDS - STAGE_STARTED[$name]))
  STAGE_TIMES+=("$name $took")
  if [ "$status" -ne 0 ]; then
    echo "=== $name: FAILED (exit $status) after $took s" >&2
    exit "$status"
  fi
  echo "=== $name: $took s (in the background)" >&2
}
stage_stop_all() {
  local pid
  for pid in "${STAGE_PIDS[@]}"; do kill -- "-$pid" 2>/dev/null || true; done
}

# stage_summary: every stage's time, and the total.
stage_summary() {
  echo "=== stage times (s):" >&2
  printf '  %-16s %5s\n' $(printf '%s\n' "${STAGE_TIMES[@]}") >&2
  printf '  %-16s %5s\n' total "$SECONDS" >&2
}
