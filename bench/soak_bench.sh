#!/usr/bin/env bash
# Soak benchmark: does vouchd stay within its memory budget (--memory-mb) and
# keep its throughput over a long mixed load? Two modes:
#
#  MODE=soak (default): DURATION seconds (default 600) of wrk load in
#    one-minute rounds, each a mix of reads and writes (40% GET a project,
#    10% GET a page of projects, 30% POST a new project, 20% PUT an update),
#    while a client generates tests and runs them one after another
#    (bench/soak_gen_runs.js). Prints vouchd's RSS every SAMPLE seconds and,
#    per minute, the requests per second, generations and runs; then the
#    highest RSS against the budget and the last minute's throughput against
#    the first's (targets: under the budget, >= 0.90). To tell a slower
#    vouchd from a busier machine, each minute also shows the CPU seconds
#    vouchd used ("cpu s"), of which RocksDB's flushes and compactions
#    ("bg s"), and the requests answered per CPU second ("req/cpu-s").
#  MODE=million: COUNT (default 1,000,000) projects created in a row (wrk
#    POSTs in 10-second rounds until that many, or until LIMIT seconds,
#    default 3600, have passed), then IDLE seconds (default 60) without
#    load; prints RSS against projects created, the time taken, and RSS at
#    the end.
#
# Each row also shows the machine's load average: on a shared machine other
# work slows vouchd down. The bench stops by itself: every wrk round is
# bounded, vouchd gone or three rounds in a row without an answer end it
# with an error, and its temporary folder (data folder included) is removed
# on exit.
#
# Both draw RSS over time (and throughput per minute, or projects created) as
# a PNG with gnuplot (PLOT, default bench-soak.png / bench-million.png here).
#
# Env: MODE, DURATION, COUNT, LIMIT, IDLE, MEMORY_MB (vouchd's --memory-mb, default
#      512), CONNECTIONS (64), THREADS (2), SAMPLE (5), PLOT, VOUCHD (the
#      binary, default build/vouchd: to compare two builds).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

MODE=${MODE:-soak}
DURATION=${DURATION:-600}
COUNT=${COUNT:-1000000}
LIMIT=${LIMIT:-3600}
IDLE=${IDLE:-60}
MEMORY_MB=${MEMORY_MB:-512}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
SAMPLE=${SAMPLE:-5}
case "$MODE" in
  soak | million) ;;
  *) echo "MODE must be soak or million" >&2; exit 2 ;;
esac
PLOT="$(realpath -m "${PLOT:-bench-$MODE.png}")"

apt_install_missing soak-bench wrk gnuplot-nox curl

bench_work soak
bench_vouchd --memory-mb "$MEMORY_MB"
BASE="http://$ADDRESS"
echo "vouchd on $ADDRESS, --memory-mb $MEMORY_MB, mode $MODE" >&2

rss_kb() { ps -o rss= -p "$VOUCHD_PID" | tr -d ' '; }
# CPU time vouchd has used, in clock ticks: "<all threads> <RocksDB's
# background threads (flushes and compactions)>". Its child processes (the
# runner's Node.js) are not counted.
cpu_ticks() {
  local all bg=0 task fields
  all=$(sed 's/.*) //' "/proc/$VOUCHD_PID/stat" | awk '{ print $12 + $13 }')
  for task in /proc/"$VOUCHD_PID"/task/*; do
    fields=$(cat "$task/stat" 2>/dev/null) || continue
    case "$fields" in
      *"(rocksdb:"*) bg=$((bg + $(sed 's/.*) //' <<<"$fields" | awk '{ print $12 + $13 }'))) ;;
    esac
  done
  echo "$all $bg"
}
TICKS=$(getconf CLK_TCK)
# The machine's load average over the last minute.
load() { cut -d' ' -f1 /proc/loadavg; }
STARTED=$(date +%s)
# RSS every SAMPLE seconds: "<seconds since start> <KiB>".
(while kill -0 "$VOUCHD_PID" 2>/dev/null; do
  echo "$(($(date +%s) - STARTED)) $(rss_kb)" >>"$WORK/rss"
  sleep "$SAMPLE"
done) &
BENCH_PIDS+=($!)

# Runs wrk for $1 seconds with script $2 (an answer may take 10 s: the machine
# is shared); prints "<requests> <non-2xx>". Fails when vouchd is gone, or
# when this is the third round in a row without an answer.
silent_rounds=0
wrk_round() {
  timeout $(($1 + 30)) wrk -t"$THREADS" -c"$CONNECTIONS" -d"$1s" --timeout 10s -s "$2" \
    "$BASE/v1/projects" >"$WORK/wrk.out" 2>&1 || true
  if ! kill -0 "$VOUCHD_PID" 2>/dev/null; then
    echo "vouchd is gone:" >&2
    tail -5 "$WORK/vouchd.err" >&2
    return 1
  fi
  local answers
  answers=$(awk '/requests in/ { n=$1 } /Non-2xx or 3xx responses/ { bad=$NF }
                 END { printf "%d %d\n", n, bad }' "$WORK/wrk.out")
  if [ "${answers%% *}" -eq 0 ]; then
    silent_rounds=$((silent_rounds + 1))
    [ "$silent_rounds" -lt 3 ] || { echo "three rounds without an answer" >&2; return 1; }
  else
    silent_rounds=0
  fi
  echo "$answers"
}

budget_kb=$((MEMORY_MB * 1024))
if [ "$MODE" = soak ]; then
  # A hundred projects for the reads and updates to use.
  ids=()
  for i in $(seq 100); do
    ids+=("$(curl -sf --max-time 10 -X POST "$BASE/v1/projects" -H "Authorization: Bearer $KEY" \
      -H 'Content-Type: application/json' -d "{\"name\":\"seed-$i\"}" |
      sed -n 's/.*"id":"\([^"]*\)".*/\1/p')")
  done
  lua_ids=$(printf '"%s",' "${ids[@]}")
  cat >"$WORK/mixed.lua" <<LUA
local ids = { ${lua_ids} }
local auth = "Bearer $KEY"
local n = 0
request = function()
  n = n + 1
  local id = ids[math.random(#ids)]
  local pick = math.random(100)
  if pick <= 40 then
    return wrk.format("GET", "/v1/projects/" .. id, { ["Authorization"] = auth })
  elseif pick <= 50 then
    return wrk.format("GET", "/v1/projects?limit=20", { ["Authorization"] = auth })
  elseif pick <= 80 then
    return wrk.format("POST", "/v1/projects",
      { ["Authorization"] = auth, ["Content-Type"] = "application/json" },
      '{"name":"soak","config":{"coverage":{"threshold":85}}}')
  else
    return wrk.format("PUT", "/v1/projects/" .. id,
      { ["Authorization"] = auth, ["Content-Type"] = "application/json" },
      '{"name":"soak-' .. n .. '"}')
  end
end
LUA
  ADDRESS="$ADDRESS" KEY="$KEY" OUT="$WORK/genruns" node "$ROOT/bench/soak_gen_runs.js" \
    2>"$WORK/genruns.err" &
  BENCH_PIDS+=($!)
  minutes=$(((DURATION + 59) / 60))
  printf '%-7s %10s %8s %12s %6s %9s %6s %6s %6s %10s\n' minute "req/s" "non-2xx" generations runs \
    "RSS MiB" load "cpu s" "bg s" "req/cpu-s"
  for minute in $(seq "$minutes"); do
    read -r cpu0 bg0 < <(cpu_ticks)
    seconds=$((DURATION - (minute - 1) * 60))
    [ "$seconds" -gt 60 ] && seconds=60
    t0=$(date +%s)
    wrk_round "$seconds" "$WORK/mixed.lua" >"$WORK/round" || exit 1
    read -r requests bad <"$WORK/round"
    read -r cpu1 bg1 < <(cpu_ticks)
    t1=$(date +%s)
    gens=$(awk -v a="$t0" -v b="$t1" '$1 >= a && $1 < b && $2 == "generation" && $3 == "ok"' "$WORK/genruns" 2>/dev/null | wc -l)
    runs=$(awk -v a="$t0" -v b="$t1" '$1 >= a && $1 < b && $2 == "run" && $3 == "ok"' "$WORK/genruns" 2>/dev/null | wc -l)
    rps=$((requests / seconds))
    echo "$((t1 - STARTED)) $rps" >>"$WORK/rps"
    cpu=$((cpu1 - cpu0))
    printf '%-7s %10s %8s %12s %6s %9s %6s %6s %6s %10s\n' "$minute" "$rps" "$bad" "$gens" "$runs" \
      "$(($(rss_kb) / 1024))" "$(load)" "$((cpu / TICKS))" "$(((bg1 - bg0) / TICKS))" \
      "$((requests * TICKS / (cpu > 0 ? cpu : 1)))"
  done
  failed=$(grep -c failed "$WORK/genruns" 2>/dev/null || true)
  echo "generations and runs that failed: ${failed:-0}"
  first=$(head -1 "$WORK/rps" | cut -d' ' -f2)
  last=$(tail -1 "$WORK/rps" | cut -d' ' -f2)
  echo "throughput: first minute $first req/s, last $last req/s, last/first = $(python3 -c "print(f'{$last/$first:.2f}')") (target >= 0.90)"
  title="vouchd soak, --memory-mb $MEMORY_MB"
  second_axis="'$WORK/rps' using 1:2 axes x1y2 with steps lw 2 title 'requests/s (per minute)'"
  xlabel="seconds"
else
  wrk_post_script "$WORK/create.lua" "$KEY" '{"name":"million","config":{"coverage":{"threshold":85}}}'
  created=0
  printf '%12s %8s %9s %6s\n' "projects" "req/s" "RSS MiB" load
  while [ "$created" -lt "$COUNT" ]; do
    if [ $(($(date +%s) - STARTED)) -ge "$LIMIT" ]; then
      echo "stopped at LIMIT ($LIMIT s) after $created projects"
      break
    fi
    wrk_round 10 "$WORK/create.lua" >"$WORK/round" || exit 1
    read -r requests bad <"$WORK/round"
    [ "$bad" -eq 0 ] || { echo "wrk saw $bad non-2xx answers" >&2; tail -5 "$WORK/vouchd.err" >&2; exit 1; }
    created=$((created + requests))
    echo "$(($(date +%s) - STARTED)) $created" >>"$WORK/created"
    printf '%12s %8s %9s %6s\n' "$created" "$((requests / 10))" "$(($(rss_kb) / 1024))" "$(load)"
  done
  took=$(($(date +%s) - STARTED))
  echo "$created projects created in $took s ($((created / (took > 0 ? took : 1))) per second)"
  echo "idle for $IDLE s"
  sleep "$IDLE"
  echo "after $created projects and $IDLE s idle: RSS $(($(rss_kb) / 1024)) MiB"
  title="vouchd, $created projects created in a row, --memory-mb $MEMORY_MB"
  second_axis="'$WORK/created' using 1:2 axes x1y2 with lines lw 2 title 'projects created'"
  xlabel="seconds"
fi
sleep "$SAMPLE"
highest=$(sort -k2 -n "$WORK/rss" | tail -1 | cut -d' ' -f2)
echo "RSS: highest $((highest / 1024)) MiB, now $(($(rss_kb) / 1024)) MiB, budget $MEMORY_MB MiB ($([ "$highest" -lt "$budget_kb" ] && echo under || echo OVER))"

gnuplot <<GNUPLOT
set terminal pngcairo size 1000,500
set output '$PLOT'
set title '$title'
set xlabel '$xlabel'
set ylabel 'RSS (MiB)'
set y2label '$([ "$MODE" = soak ] && echo "requests/s" || echo "projects created")'
set ytics nomirror
set y2tics
set yrange [0:*]
set y2range [0:*]
set key bottom right
plot '$WORK/rss' using 1:(\$2/1024) with lines lw 2 title 'RSS', \
     $MEMORY_MB with lines dt 2 title 'budget'${second_axis:+, $second_axis}
GNUPLOT
echo "plot: $PLOT"
