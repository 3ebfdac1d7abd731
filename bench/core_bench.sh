#!/usr/bin/env bash
# Core API benchmark (issue 2). Runs, in one go on this machine and under the
# same wrk load (connections, threads, duration):
#   a) nginx serving a small static JSON file       (baseline for reads)
#   b) GET /v1/projects/{id} on vouchd
#   c) pgbench -N on a local PostgreSQL, synchronous_commit=on (baseline for durable writes)
#   d) POST /v1/projects on vouchd (each answer is fsync-durable)
# and prints req/s, p50 and p99 for each, with the ratios b/a and d/c, the CPU
# time per request of nginx's workers and of vouchd, and vouchd's resident
# memory idle (started, one project, the warm runners ready) and after the load.
# Targets: reads >= 0.8x nginx with p99 <= 10 ms; durable creates >= 2x
# PostgreSQL TPS, p99 <= 20 ms; idle RSS <= 40 MB.
# Env: CONNECTIONS (64), THREADS (2), DURATION (10 s), VOUCHD (the binary,
# default build/vouchd: to compare two builds).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$(dirname "$0")/.."

CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
DURATION=${DURATION:-10}

apt_install_missing core-bench wrk nginx-light postgresql postgresql-contrib
scripts/setup.sh >/dev/null

work=$(mktemp -d /tmp/vouch-bench-XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -n "${PGBIN:-}" ] && runuser -u postgres -- "$PGBIN/pg_ctl" -D "$work/pg" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# CPU seconds (user + system) of the given processes so far.
cpu_seconds() {
  local total=0 pid
  for pid in "$@"; do total=$(awk -v t="$total" '{print t + ($14 + $15) / 100}' "/proc/$pid/stat"); done
  echo "$total"
}
# Microseconds of CPU per request: cpu_per_request BEFORE AFTER RPS DURATION
cpu_per_request() { python3 -c "print(f'{($2 - $1) * 1e6 / ($3 * $4):.1f}')"; }

# Parses wrk --latency output into "rps p50_ms p99_ms"; refuses runs with errors.
wrk_figures() {
  awk '
    /Non-2xx or 3xx responses/ { print "wrk saw " $NF " non-2xx answers" > "/dev/stderr"; bad=1 }
    function ms(v) { if (v ~ /us$/) return v/1000; if (v ~ /ms$/) return v+0; if (v ~ /s$/) return v*1000; return v }
    /Requests\/sec/ { rps=$2 }
    /^ +50%/ { p50=ms($2) }
    /^ +99%/ { p99=ms($2) }
    END { if (bad) exit 1; printf "%.0f %.2f %.2f\n", rps, p50, p99 }'
}

# --- a) nginx -----------------------------------------------------------------
nginx_port=$(free_port)
mkdir -p "$work/www" "$work/nginx"
echo '{"id":"prj_0123456789abcdef01234567","name":"shop","repository":"","config":{"framework":"jest","coverage":{"threshold":80}},"created":"2026-11-22T10:00:00.000Z","updated":"2026-11-22T10:00:00.000Z"}' > "$work/www/project.json"
cat > "$work/nginx/nginx.conf" <<NGINX
worker_processes 2;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  default_type application/json;
  client_body_temp_path $work/nginx; proxy_temp_path $work/nginx; fastcgi_temp_path $work/nginx;
  uwsgi_temp_path $work/nginx; scgi_temp_path $work/nginx;
  server { listen 127.0.0.1:$nginx_port; root $work/www; keepalive_requests 1000000; }
}
NGINX
nginx -c "$work/nginx/nginx.conf" -g 'daemon off;' &
pids+=($!)
sleep 0.5
nginx_workers=($(pgrep -f "nginx: worker process" -P "${pids[-1]}" || pgrep -f "nginx: worker process"))
a_cpu0=$(cpu_seconds "${nginx_workers[@]}")
read -r a_rps a_p50 a_p99 < <(wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency "http://127.0.0.1:$nginx_port/project.json" | wrk_figures)
a_cpu1=$(cpu_seconds "${nginx_workers[@]}")

# --- b) and d) vouchd --------------------------------------------------------------
key=vk_bench_admin_key
# Rate limits off: the plans cap any one account far below what is measured here.
VOUCH_BOOTSTRAP_KEY=$key "${VOUCHD:-build/vouchd}" --data "$work/vouch" --listen 127.0.0.1:0 --no-rate-limits \
  --secrets-key-file "$work/secrets.key" > "$work/vouchd.out" 2>"$work/vouchd.err" &
vouchd_pid=$!
pids+=($vouchd_pid)
for _ in $(seq 50); do grep -q "listening on" "$work/vouchd.out" 2>/dev/null && break; sleep 0.1; done
vouch_port=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' "$work/vouchd.out")
project=$(curl -s -X POST "http://127.0.0.1:$vouch_port/v1/projects" -H "Authorization: Bearer $key" \
  -H 'Content-Type: application/json' -d '{"name":"bench"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')

# Idle: the warm runners (processes of their own, not counted) are ready.
for _ in $(seq 100); do
  curl -s "http://127.0.0.1:$vouch_port/metrics" | grep -q '^vouch_runners_ready [1-9]' && break
  sleep 0.1
done
sleep 1
idle_rss_kb=$(ps -o rss= -p "$vouchd_pid" | tr -d ' ')

cat > "$work/get.lua" <<LUA
wrk.headers["Authorization"] = "Bearer $key"
LUA
b_cpu0=$(cpu_seconds "$vouchd_pid")
read -r b_rps b_p50 b_p99 < <(wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$work/get.lua" "http://127.0.0.1:$vouch_port/v1/projects/$project" | wrk_figures)
b_cpu1=$(cpu_seconds "$vouchd_pid")

wrk_post_script "$work/post.lua" "$key" '{"name":"bench","config":{"coverage":{"threshold":85}}}'
read -r d_rps d_p50 d_p99 < <(wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$work/post.lua" "http://127.0.0.1:$vouch_port/v1/projects" | wrk_figures)
loaded_rss_kb=$(ps -o rss= -p "$vouchd_pid" | tr -d ' ')
syncs=$(curl -s "http://127.0.0.1:$vouch_port/metrics" | awk '/^vouch_log_syncs_total/ {print $2}')
appends=$(curl -s "http://127.0.0.1:$vouch_port/metrics" | awk '/^vouch_log_appends_total/ {print $2}')

# --- c) PostgreSQL, pgbench -N, synchronous commit --------------------------------
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
pg_port=$(free_port)
mkdir -p "$work/pg" && chown postgres "$work/pg"
runuser -u postgres -- "$PGBIN/initdb" -D "$work/pg" -A trust >/dev/null
runuser -u postgres -- "$PGBIN/pg_ctl" -D "$work/pg" -l "$work/pg/log" -w \
  -o "-p $pg_port -k $work/pg -c synchronous_commit=on -c fsync=on -c listen_addresses=127.0.0.1" start >/dev/null
runuser -u postgres -- "$PGBIN/pgbench" -h 127.0.0.1 -p "$pg_port" -i -s 10 postgres >/dev/null 2>&1
(cd "$work/pg" && runuser -u postgres -- "$PGBIN/pgbench" -h 127.0.0.1 -p "$pg_port" -N -c "$CONNECTIONS" \
  -j "$THREADS" -T "$DURATION" -l postgres > "$work/pgbench.out" 2>&1)
c_rps=$(awk '/^tps/ {print int($3)}' "$work/pgbench.out" | head -1)
read -r c_p50 c_p99 < <(cat "$work"/pg/pgbench_log.* | awk '{print $3/1000}' | sort -n | awk '
  { v[NR]=$1 } END { printf "%.2f %.2f\n", v[int(NR*0.5)], v[int(NR*0.99)] }')

ratio() { python3 -c "print(f'{$1/$2:.2f}')"; }
printf '\n%-44s %10s %9s %9s\n' "load: wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s" "req/s" "p50 ms" "p99 ms"
printf '%-44s %10s %9s %9s\n' "a) nginx static JSON" "$a_rps" "$a_p50" "$a_p99"
printf '%-44s %10s %9s %9s\n' "b) vouchd GET /v1/projects/{id}" "$b_rps" "$b_p50" "$b_p99"
printf '%-44s %10s %9s %9s\n' "c) PostgreSQL pgbench -N (sync commit)" "$c_rps" "$c_p50" "$c_p99"
printf '%-44s %10s %9s %9s\n' "d) vouchd POST /v1/projects (durable)" "$d_rps" "$d_p50" "$d_p99"
echo
echo "reads  b/a = $(ratio "$b_rps" "$a_rps")   (target >= 0.8, p99 <= 10 ms)"
echo "writes d/c = $(ratio "$d_rps" "$c_rps")   (target >= 2.0, p99 <= 20 ms)"
echo "CPU per read: nginx workers $(cpu_per_request "$a_cpu0" "$a_cpu1" "$a_rps" "$DURATION") us, vouchd $(cpu_per_request "$b_cpu0" "$b_cpu1" "$b_rps" "$DURATION") us"
echo "vouchd RSS: idle $((idle_rss_kb / 1024)) MB (target <= 40), after the load $((loaded_rss_kb / 1024)) MB"
echo "group commit: $appends appends in $syncs fsyncs"
