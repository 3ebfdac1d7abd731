#!/usr/bin/env bash
# Webhook benchmark (issue 5). In one run on this machine, against one local
# receiver (tests/webhooks/receiver.js --quiet, node):
#   a) wrk POSTing a delivery body with its headers to the receiver  (the raw rate)
#   b) vouchd fanning events out to WEBHOOKS webhooks: signed deliveries per
#      second, each attempt recorded durably in the event log
#   c) one webhook, events created one at a time: p50/p99 from the event's
#      creation (stamped just before its append) to its arrival at the receiver
# Targets: b >= 0.5 x a; c p99 <= 50 ms.
#
# The receiver is warmed up first (wrk, not counted), so that neither side
# pays for node compiling its handler. a and b then alternate for ROUNDS
# rounds, so that both meet the same machine (on a shared 2-core VM a round
# can be much slower than its neighbours); the figures are the medians.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$(dirname "$0")/.."

apt_install_missing webhook-bench wrk apache2-utils
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
  --secrets-key-file "$work/secrets.key" --no-rate-limits --warm-runners 0 --webhook-allow-http --webhook-allow-cidr 127.0.0.0/8 \
  > "$work/vouchd.out" 2> "$work/vouchd.err" &
vouchd_pid=$!
pids+=($vouchd_pid)
for _ in $(seq 100); do
  grep -q listening "$work/vouchd.out" 2>/dev/null && grep -q listening "$work/receiver.out" 2>/dev/null && break
  sleep 0.1
done

# What wrk posts: a delivery body with the headers vouchd sends.
body='{"id":"evt_0123456789abcdef01234567","type":"project.created","created":"2026-11-22T10:00:00.000Z","data":{"id":"prj_0123456789abcdef01234567","account":"admin","name":"p1","repository":"","framework":"jest","threshold":8E1,"created":1795345548648,"updated":1795345548648}}'
cat > "$work/post.lua" <<LUA
wrk.method = "POST"
wrk.body = '$body'
wrk.headers["content-type"] = "application/json"
wrk.headers["user-agent"] = "Vouch-Webhooks/1.0"
wrk.headers["webhook-id"] = "evt_0123456789abcdef01234567"
wrk.headers["webhook-timestamp"] = "1795345548"
wrk.headers["webhook-signature"] = "v1,mYUVKL3A2ovBtU7jt1V/8E7dHQRHd92w2gOp7akxUg0="
wrk.headers["x-service-timestamp"] = "1795345548"
wrk.headers["x-service-signature"] = "aa040786a9a3c9907f331b36e23e007ef7f86334253b3c6446cb1c0388c8b196"
LUA

python3 - "$api_port" "$receiver_port" "${WEBHOOKS:-20}" "${EVENTS:-2000}" "${ROUNDS:-3}" \
  "${LATENCY_EVENTS:-300}" "${DURATION:-4}" "$work" <<'PY'
import http.client, json, re, statistics, subprocess, sys, time
api, receiver, webhooks, events, rounds, latency_events, duration, work = sys.argv[1:]
webhooks, events, rounds, latency_events = int(webhooks), int(events), int(rounds), int(latency_events)
ADMIN = "vk_bench_admin"

def call(method, path, body=None, key=ADMIN, conn=None):
    c = conn or http.client.HTTPConnection("127.0.0.1", int(api))
    c.request(method, path, json.dumps(body) if body is not None else None,
              {"Authorization": "Bearer " + key, "Content-Type": "application/json"})
    r = c.getresponse(); data = r.read()
    if r.status >= 300: raise SystemExit(f"{method} {path}: {r.status} {data[:200]}")
    return json.loads(data) if data else None

def control(method, path):
    c = http.client.HTTPConnection("127.0.0.1", int(receiver))
    c.request(method, path); return json.loads(c.getresponse().read())

def wait_for(name, expected, limit=120):
    until = time.time() + limit
    while time.time() < until:
        s = control("GET", "/_stats?name=" + name)
        if s["count"] >= expected: return s
        time.sleep(0.05)
    raise SystemExit(f"{name}: only {control('GET', '/_stats?name=' + name)['count']} of {expected} deliveries arrived")

def wrk(seconds, name):
    out = subprocess.run(["wrk", "-t2", "-c32", f"-d{seconds}s", "-s", f"{work}/post.lua",
                          f"http://127.0.0.1:{receiver}/h/{name}"],
                         capture_output=True, text=True, check=True).stdout
    return float(re.search(r"Requests/sec:\s+([0-9.]+)", out).group(1))

# The receiver's warm-up: node compiles its handler under load; not counted.
wrk(2, "warm-up")

# b) fan-out: WEBHOOKS webhooks on one account; EVENTS projects per round
#    created by ab, 16 at a time, so that the events come faster than their
#    deliveries can go and the rate measured at the receiver is the fan-out's own.
for _ in range(webhooks):
    call("POST", "/v1/webhooks", {"url": f"http://127.0.0.1:{receiver}/h/fanout", "events": ["*"]})
with open(f"{work}/project.json", "w") as body:
    json.dump({"name": "fan-out"}, body)

def fan_out():
    control("POST", "/_reset?name=fanout")
    ab = subprocess.run(["ab", "-q", "-n", str(events), "-c", "16", "-p", f"{work}/project.json",
                         "-T", "application/json", "-H", "Authorization: Bearer " + ADMIN,
                         f"http://127.0.0.1:{api}/v1/projects"], capture_output=True, text=True)
    if ab.returncode != 0 or "Non-2xx responses" in ab.stdout:
        raise SystemExit("ab failed:\n" + ab.stdout + ab.stderr)
    s = wait_for("fanout", events * webhooks)
    return s["count"] / max((s["last"] - s["first"]) / 1000.0, 1e-3)

# a) and b) alternate, so that a slow stretch of the machine hits both.
raw, fanout = [], []
for _ in range(rounds):
    fanout.append(fan_out())
    raw.append(wrk(duration, "wrk"))

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

rounds_text = ", ".join(f"{f:.0f}/{r:.0f}" for f, r in zip(fanout, raw))
print(f"rounds (fan-out/raw, per second):        {rounds_text}")
print(f"raw receiver rate (wrk -t2 -c32):        {statistics.median(raw):10.0f} req/s (median)")
print(f"vouchd signed fan-out ({webhooks} webhooks):    {statistics.median(fanout):10.0f} deliveries/s "
      f"(median; {events * webhooks} deliveries a round, each attempt an event)")
print(f"ratio fan-out / raw:                     {statistics.median(fanout) / statistics.median(raw):10.2f}  (target >= 0.5)")
print(f"append -> delivery latency, one webhook: p50 {p(0.50):.0f} ms, p99 {p(0.99):.0f} ms  (target p99 <= 50 ms)")
PY
