#!/usr/bin/env bash
# Webhook benchmark (issue 5). In one run on this machine, against one local
# receiver (tests/webhooks/receiver.js --quiet, node):
#   a) wrk POSTing a delivery body with its headers to the receiver  (the raw rate)
#   b) vouchd fanning events out to WEBHOOKS webhooks: signed deliveries per
#      second, each attempt recorded durably in the event log
#   c) one webhook, events created one at a time: p50/p99 from the event's
#      creation (stamped just before its append) to its arrival at the receiver
# Targets: b >= 0.5 x a; c p99 <= 50 ms.
set -euo pipefail
cd "$(dirname "$0")/.."

WEBHOOKS=${WEBHOOKS:-20}
EVENTS=${EVENTS:-1000}
LATENCY_EVENTS=${LATENCY_EVENTS:-300}
DURATION=${DURATION:-5}

if ! command -v wrk >/dev/null || ! command -v ab >/dev/null; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq wrk apache2-utils >/dev/null
fi
scripts/setup.sh >/dev/null

work=$(mktemp -d /tmp/vouch-webhook-bench-XXXXXX)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  if [ -n "${vouchd_pid:-}" ]; then
    status=0; wait "$vouchd_pid" || status=$?
    [ "$status" -eq 0 ] || { echo "vouchd exited with $status on SIGTERM:" >&2; tail -20 "$work/vouchd.err" >&2; }
  fi
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

receiver_port=$(free_port)
node tests/webhooks/receiver.js --quiet --port "$receiver_port" > "$work/receiver.out" &
pids+=($!)
api_port=$(free_port)
# No warm runners: priming them (loading Jest) costs about 1.5 s of CPU right
# after start, inside the fan-out window on 2 cores; a server that has been up
# for a while has paid it long ago, and no test runs here.
VOUCH_BOOTSTRAP_KEY=vk_bench_admin build/vouchd --data "$work/data" --listen "127.0.0.1:$api_port" \
  --no-rate-limits --warm-runners 0 --webhook-allow-http --webhook-allow-cidr 127.0.0.0/8 \
  > "$work/vouchd.out" 2> "$work/vouchd.err" &
vouchd_pid=$!
pids+=($vouchd_pid)
for _ in $(seq 100); do
  grep -q listening "$work/vouchd.out" 2>/dev/null && grep -q listening "$work/receiver.out" 2>/dev/null && break
  sleep 0.1
done

python3 - "$api_port" "$receiver_port" "$WEBHOOKS" "$EVENTS" "$LATENCY_EVENTS" "$work" <<'PY'
import http.client, json, re, subprocess, sys, time
api, receiver, webhooks, events, latency_events, work = sys.argv[1:]
webhooks, events, latency_events = int(webhooks), int(events), int(latency_events)
ADMIN = "vk_bench_admin"

def call(method, path, body=None, key=ADMIN, conn=None):
    c = conn or http.client.HTTPConnection("127.0.0.1", int(api))
    c.request(method, path, json.dumps(body) if body is not None else None,
              {"Authorization": "Bearer " + key, "Content-Type": "application/json"})
    r = c.getresponse(); data = r.read()
    if r.status >= 300: raise SystemExit(f"{method} {path}: {r.status} {data[:200]}")
    return json.loads(data) if data else None

def stats(name):
    c = http.client.HTTPConnection("127.0.0.1", int(receiver))
    c.request("GET", "/_stats?name=" + name); return json.loads(c.getresponse().read())

def wait_for(name, expected, limit=120):
    until = time.time() + limit
    while time.time() < until:
        s = stats(name)
        if s["count"] >= expected: return s
        time.sleep(0.05)
    raise SystemExit(f"{name}: only {stats(name)['count']} of {expected} deliveries arrived")

# b) fan-out: WEBHOOKS webhooks on one account; EVENTS projects created by ab,
#    16 at a time, so that the events come faster than their deliveries can
#    go and the rate measured at the receiver is the fan-out's own.
for _ in range(webhooks):
    call("POST", "/v1/webhooks", {"url": f"http://127.0.0.1:{receiver}/h/fanout", "events": ["*"]})
with open(f"{work}/project.json", "w") as body:
    json.dump({"name": "fan-out"}, body)
ab = subprocess.run(["ab", "-q", "-n", str(events), "-c", "16", "-p", f"{work}/project.json",
                     "-T", "application/json", "-H", "Authorization: Bearer " + ADMIN,
                     f"http://127.0.0.1:{api}/v1/projects"], capture_output=True, text=True)
if ab.returncode != 0 or "Non-2xx responses" in ab.stdout:
    raise SystemExit("ab failed:\n" + ab.stdout + ab.stderr)
created_in = float(re.search(r"Time taken for tests:\s+([0-9.]+)", ab.stdout).group(1))
expected = events * webhooks
s = wait_for("fanout", expected)
fanout_rate = s["count"] / max((s["last"] - s["first"]) / 1000.0, 1e-3)

# c) latency: a second account with one webhook, one event at a time.
key = call("POST", "/v1/keys", {"account": "latency", "plan": "enterprise",
                                "scopes": ["projects:write", "webhooks:write", "webhooks:read"]})["key"]
call("POST", "/v1/webhooks", {"url": f"http://127.0.0.1:{receiver}/h/latency", "events": ["project.created"]}, key=key)
conn = http.client.HTTPConnection("127.0.0.1", int(api))
for i in range(latency_events):
    call("POST", "/v1/projects", {"name": f"l{i}"}, key=key, conn=conn)
    time.sleep(0.005)
lat = sorted(wait_for("latency", latency_events)["latencies"])
p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))]
json.dump({"deliveries": s["count"], "fanout_rate": fanout_rate, "created_in": created_in,
           "window": (s["last"] - s["first"]) / 1000.0, "events": events, "p50": p(0.50), "p99": p(0.99)},
          open(f"{work}/figures.json", "w"))
PY

# a) the raw rate: wrk posting a delivery body with the same headers to the same receiver.
body='{"id":"evt_0123456789abcdef01234567","type":"project.created","created":"2026-11-22T10:00:00.000Z","data":{"id":"prj_0123456789abcdef01234567","account":"admin","name":"p1","repository":"","framework":"jest","threshold":8E1,"created":1795345548648,"updated":1795345548648}}'
cat > "$work/post.lua" <<LUA
wrk.method = "POST"
wrk.body = '$body'
wrk.headers["content-type"] = "application/json"
wrk.headers["webhook-id"] = "evt_0123456789abcdef01234567"
wrk.headers["webhook-timestamp"] = "1795345548"
wrk.headers["webhook-signature"] = "v1,mYUVKL3A2ovBtU7jt1V/8E7dHQRHd92w2gOp7akxUg0="
wrk.headers["x-service-timestamp"] = "1795345548"
wrk.headers["x-service-signature"] = "aa040786a9a3c9907f331b36e23e007ef7f86334253b3c6446cb1c0388c8b196"
LUA
wrk_rps=$(wrk -t2 -c32 -d"${DURATION}s" -s "$work/post.lua" "http://127.0.0.1:$receiver_port/h/wrk" |
  awk '/Requests\/sec/ { print $2 }')

python3 - "$work/figures.json" "$wrk_rps" "$WEBHOOKS" <<'PY'
import json, sys
f = json.load(open(sys.argv[1])); wrk = float(sys.argv[2]); hooks = sys.argv[3]
print(f"raw receiver rate (wrk -t2 -c32):        {wrk:10.0f} req/s")
print(f"vouchd signed fan-out ({hooks} webhooks):    {f['fanout_rate']:10.0f} deliveries/s "
      f"({f['deliveries']} deliveries in {f['window']:.2f} s, each attempt an event; "
      f"the {f['events']} events were created in {f['created_in']:.2f} s)")
print(f"ratio fan-out / raw:                     {f['fanout_rate'] / wrk:10.2f}  (target >= 0.5)")
print(f"append -> delivery latency, one webhook: p50 {f['p50']:.0f} ms, p99 {f['p99']:.0f} ms  (target p99 <= 50 ms)")
PY
