#!/usr/bin/env bash
# Idle Realtime sockets (issue 21): SOCKETS sockets on one server, each joined to one channel
# and sending a heartbeat every INTERVAL s; the server's memory and every heartbeat's reply time,
# on SQLite and on PostgreSQL.
#
#   Benchmarks/realtime/idle.sh                                            # 10,000 sockets, 90 s
#   SOCKETS=2000 DURATION=10 ENGINES=sqlite Benchmarks/realtime/idle.sh    # a quick check
#   BIN=/tmp/me/lifesignal Benchmarks/realtime/idle.sh                     # a binary already built
#
# Builds `lifesignal` in release (SCRATCH, default .build-release) unless BIN names a binary,
# and copies it, so that a rebuild during the run does not change what is measured. On each
# engine it starts `serve` (defaults, no sweep timer), waits for /ready, and runs
# idle_sockets.py: SOCKETS sockets join `locations` INSERT as anon, then idle for DURATION s
# with their heartbeats spread evenly (10,000 every 30 s: about 333 a second), while a probe
# process with PROBE_SOCKETS sockets sends one heartbeat a second each as a check on the client.
# Reports sockets joined and refused, join time, the server's RSS (idle, all joined, while
# idling, VmHWM), bytes per socket, heartbeat reply p50/p99/max, sockets the server closed.
# PostgreSQL is a throwaway cluster from scripts/postgres-cluster. The open-file limit is raised
# for this script's processes only. Sockets come from 127.0.0.2… (PER_ADDRESS each: serve admits
# 256 connections per client address); only loopback is used. At the end all sockets are reset
# at once, and the time until the server counts none open is reported. The measurements hold
# LOCK (default /tmp/lifesignal-bench.lock; LOCK= skips it), as Benchmarks/rest/run.sh does, so
# do not wrap this script in flock on the same file.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=Benchmarks/realtime
SOCKETS=${SOCKETS:-10000}
DURATION=${DURATION:-90}
INTERVAL=${INTERVAL:-30}
PER_ADDRESS=${PER_ADDRESS:-200}
PROBE_SOCKETS=${PROBE_SOCKETS:-10}
ENGINES=${ENGINES:-sqlite postgres}
LOCK=${LOCK-/tmp/lifesignal-bench.lock}

# Both the server and the client hold one descriptor per socket.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt $((SOCKETS + PROBE_SOCKETS + 1024)) ]; then
  echo "the open-file limit ($(ulimit -n), hard $(ulimit -Hn)) is below SOCKETS + 1024" >&2
  exit 1
fi

VENV=.build/realtime-bench-venv
if ! "$VENV/bin/python" -c "import websockets" 2>/dev/null; then
  python3 -m venv "$VENV" && "$VENV/bin/pip" install -q "websockets==15.0.1" >&2
fi
BIN_GIVEN=${BIN:-}
if [ -z "${BIN:-}" ]; then
  SCRATCH=${SCRATCH:-.build-release}
  swift build -c release --product lifesignal --scratch-path "$SCRATCH" >&2
  BIN=$SCRATCH/release/lifesignal
fi
work=$(mktemp -d /tmp/lifesignal-idle.XXXXXX)
cluster=
cleanup() {
  [ -n "${server:-}" ] && kill "$server" 2>/dev/null
  [ -n "$cluster" ] && scripts/postgres-cluster stop "$cluster"
  rm -rf "$work"
}
trap cleanup EXIT
cp "$BIN" "$work/lifesignal"
if [ -n "$LOCK" ]; then
  exec 9>>"$LOCK"
  flock -n 9 || { echo "waiting for $LOCK (another benchmark is running)" >&2; flock 9; }
fi
export LIFESIGNAL_JWT_SECRET="benchmark-secret-$(date +%s)-with-enough-length"
if [ -n "${BIN_GIVEN:-}" ]; then built="binary $BIN_GIVEN built $(date -u -r "$BIN_GIVEN" '+%H:%M UTC'), tree at"; else built=commit; fi
echo "== idle sockets: $built $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources || echo ' (Sources modified)')," \
  "$(date -u '+%Y-%m-%d %H:%M UTC'), $SOCKETS sockets, a heartbeat every $INTERVAL s each, $DURATION s, open-file limit $(ulimit -n)"

run_engine() {
  local name=$1 database=$2 port=$3
  LIFESIGNAL_DATA_DIR="$work/$name" "$work/lifesignal" serve --database "$database" --port "$port" --sweep-interval 0 \
    >"$work/$name.log" 2>&1 9>&- &
  server=$!
  for _ in $(seq 1 300); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/ready" 2>/dev/null)" = 200 ] && break
    kill -0 "$server" 2>/dev/null || { cat "$work/$name.log" >&2; exit 1; }
    sleep 0.2
  done
  local key; key=$(grep "anon key" "$work/$name.log" | awk '{print $3}')
  sleep 2  # past the start's own allocations
  echo "== $name"
  "$VENV/bin/python" "$here/idle_sockets.py" "$port" "$key" "$server" --sockets "$SOCKETS" --duration "$DURATION" \
    --interval "$INTERVAL" --per-address "$PER_ADDRESS" --probe-sockets "$PROBE_SOCKETS" | tee "$work/$name.out"
  kill -0 "$server" 2>/dev/null || { echo "the $name server died:" >&2; tail -20 "$work/$name.log" >&2; exit 1; }
  kill "$server"; wait "$server" 2>/dev/null || true; server=
  tail -1 "$work/$name.out" > "$work/$name.json"
}

for engine in $ENGINES; do
  case "$engine" in
    sqlite) run_engine sqlite "$work/bench.sqlite" 54396 ;;
    postgres)
      cluster=$(mktemp -d /tmp/lifesignal-pg.XXXXXX)
      run_engine postgres "$(scripts/postgres-cluster start "$cluster" 9>&-)" 54397
      scripts/postgres-cluster stop "$cluster"; cluster= ;;
    *) echo "unknown engine $engine (sqlite, postgres)" >&2; exit 2 ;;
  esac
done

echo "== summary"
python3 - "$work" $ENGINES <<'PY'
import json, sys
work, engines = sys.argv[1], sys.argv[2:]
print("| engine | joined | refused / closed | join | RSS idle | all joined | peak | bytes/socket | heartbeats | p50 | p99 | max | probe p99 | all reset: none open after |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for engine in engines:
    r = json.load(open(f"{work}/{engine}.json"))
    m = lambda b: f"{b / 1048576:.0f} MiB"
    print(f"| {engine} | {r['joined']:,} of {r['sockets']:,} | {r['refused']} / {r['closed']} | {r['join_seconds']} s | {m(r['rss_idle'])} "
          f"| {m(r['rss_joined'])} | {m(r['rss_peak'])} | {r['bytes_per_socket']:,} | {r['heartbeats']:,} ({r['unanswered']} unanswered) "
          f"| {r['p50_ms']} ms | {r['p99_ms']} ms | {r['max_ms']} ms | {r['probe_p99_ms']} ms | {r['drop_seconds']} s |")
PY
