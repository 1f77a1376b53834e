#!/usr/bin/env bash
# Realtime fan-out (issue 17): one change delivered to SUBSCRIBERS sockets, and check-in
# throughput with and without those sockets connected, on PostgreSQL and SQLite.
#
#   Benchmarks/realtime/run.sh                      # release build, 1,000 subscribers
#   BUILD=debug SUBSCRIBERS=100 ROUNDS=5 DURATION=5 Benchmarks/realtime/run.sh   # a quick check
#
# Builds `lifesignal` (release in SCRATCH, default .build-release, as Benchmarks/rest does;
# BUILD=debug uses the debug binary in .build), then on each engine:
#   shared:   SUBSCRIBERS sockets join with the anon key (one identity: one read per change);
#   people:   SUBSCRIBERS sockets join each as a different person (one read each per change),
#             binding `locations` INSERT and their own `check_ins`;
#   each runs ROUNDS inserts of a location and reports p50/p99 from the write's request to the
#   last subscriber's frame; with the people connected, `wrk` runs POST /functions/v1/check-in
#   (64 connections, DURATION s), and before that with no socket open (after a warm-up run).
# Needs wrk (apt-get install -y wrk); websockets (PyPI) goes into a venv in .build. Only
# 127.0.0.1 is targeted; the sockets come from 127.0.0.2… (loopback), 100 per address.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=Benchmarks/realtime
SUBSCRIBERS=${SUBSCRIBERS:-1000}
ROUNDS=${ROUNDS:-50}
DURATION=${DURATION:-15}
CONNECTIONS=${CONNECTIONS:-64}
PEOPLE=${PEOPLE:-40000}
BUILD=${BUILD:-release}
export WRK_THREADS=2
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

VENV=.build/realtime-bench-venv
if ! "$VENV/bin/python" -c "import websockets" 2>/dev/null; then
  python3 -m venv "$VENV" && "$VENV/bin/pip" install -q "websockets==15.0.1" >&2
fi
if [ "$BUILD" = release ]; then
  SCRATCH=${SCRATCH:-.build-release}
  swift build -c release --product lifesignal --scratch-path "$SCRATCH" >&2
  BIN=$SCRATCH/release/lifesignal
else
  # The debug binary `swift build` (or `swift build --build-tests`) already made.
  BIN=.build/debug/lifesignal
  [ -x "$BIN" ] || swift build --product lifesignal >&2
fi
work=$(mktemp -d /tmp/lifesignal-rtbench.XXXXXX)
cluster=$(mktemp -d /tmp/lifesignal-pg.XXXXXX)
cleanup() { [ -n "${server:-}" ] && kill "$server" 2>/dev/null; scripts/postgres-cluster stop "$cluster"; rm -rf "$work"; }
trap cleanup EXIT
PG=$(scripts/postgres-cluster start "$cluster")
export LIFESIGNAL_JWT_SECRET="benchmark-secret-$(date +%s)-with-enough-length"

checkin() {  # name port key label
  echo "== $1 check-in $4: wrk -c$CONNECTIONS -d${DURATION}s POST /functions/v1/check-in"
  TOKENS_FILE="$work/$1.tokens" ANON_KEY="$3" \
    wrk -t$WRK_THREADS -c"$CONNECTIONS" -d"${DURATION}s" --latency -s Benchmarks/rest/checkin.lua "http://127.0.0.1:$2" \
    | tee "$work/$1.checkin.$4.wrk"
}

run_engine() {
  local name=$1 database=$2 port=$3
  LIFESIGNAL_DATA_DIR="$work/$name" "$BIN" serve --database "$database" --port "$port" --sweep-interval 0 --show-service-role-key \
    >"$work/$name.log" 2>&1 &
  server=$!
  for _ in $(seq 1 300); do grep -q "service_role key" "$work/$name.log" 2>/dev/null && break; sleep 0.2; done
  local key service
  key=$(grep "anon key" "$work/$name.log" | awk '{print $3}')
  service=$(grep "service_role key" "$work/$name.log" | awk '{print $3}')
  python3 Benchmarks/rest/seed_people.py "$name" "$database" "$PEOPLE" "$LIFESIGNAL_JWT_SECRET" "$work/$name.tokens"
  # People 1…SUBSCRIBERS subscribe; the next 5,000 warm the server up (the first seconds after
  # a start are slower, and would be charged to whichever run came first); the rest check in,
  # from the front without subscribers, from the back with them (a second check-in within
  # minutes is refused, so no one checks in twice).
  mv "$work/$name.tokens" "$work/$name.all"
  sed -n "$((SUBSCRIBERS + 1)),$((SUBSCRIBERS + 5000))p" "$work/$name.all" > "$work/$name.tokens"
  checkin "$name" "$port" "$key" warm-up > /dev/null
  tail -n +$((SUBSCRIBERS + 5001)) "$work/$name.all" > "$work/$name.tokens"
  checkin "$name" "$port" "$key" without-subscribers
  "$VENV/bin/python" "$here/subscribers.py" "$port" "$key" "$service" shared "$SUBSCRIBERS" "$ROUNDS" | tee -a "$work/summary"
  # Fresh people for the second wrk run (a check-in within minutes of the last is refused).
  head -n "$SUBSCRIBERS" "$work/$name.all" > "$work/$name.subscribers"
  tail -n +$((SUBSCRIBERS + 5001)) "$work/$name.all" | tac > "$work/$name.tokens"
  "$VENV/bin/python" "$here/subscribers.py" "$port" "$key" "$service" people "$SUBSCRIBERS" "$ROUNDS" "$work/$name.subscribers" \
    -- bash -c "$(declare -f checkin); work=$work CONNECTIONS=$CONNECTIONS DURATION=$DURATION WRK_THREADS=2 checkin $name $port $key with-subscribers" \
    | tee -a "$work/summary"
  kill "$server"; wait "$server" 2>/dev/null || true; server=
  for label in without-subscribers with-subscribers; do
    echo "== summary $name check-in $label: $(awk '/Requests\/sec/ {print $2}' "$work/$name.checkin.$label.wrk") req/s," \
      "p99 $(awk '/ 99%/ {print $2}' "$work/$name.checkin.$label.wrk"), non-2xx $(awk '/Non-2xx/ {print $5}' "$work/$name.checkin.$label.wrk")" \
      | tee -a "$work/summary"
  done
}

run_engine postgres "$PG" 54393
run_engine sqlite "$work/bench.sqlite" 54394
echo "== summary"
cat "$work/summary"
