#!/usr/bin/env bash
# Two builds of `lifesignal` side by side on the SQLite anonymous read, in alternating rounds:
# each serves its own copy of the same data (ROWS published locations), and wrk reads
# the seed-004 page from each in turn, so both see the same minutes of a noisy machine.
#
#   Benchmarks/rest/ab_sqlite_read.sh OLD_BIN NEW_BIN              # 3 rounds of 10 s
#   ROUNDS=5 DURATION=15 Benchmarks/rest/ab_sqlite_read.sh A B
#   NEW_ENV=LIFESIGNAL_EVENT_LOOP_EXECUTOR=1 Benchmarks/rest/ab_sqlite_read.sh B B   # one build, two settings
#
# Prints, per round and build: requests a second, p99, and the server's CPU (user + system)
# per request. Only 127.0.0.1 is used (ports 54401 and 54402).
set -euo pipefail
OLD=$1 NEW=$2
ROUNDS=${ROUNDS:-3} DURATION=${DURATION:-10} CONNECTIONS=${CONNECTIONS:-64} ROWS=${ROWS:-10000}
work=$(mktemp -d /tmp/lifesignal-ab.XXXXXX)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
export LIFESIGNAL_JWT_SECRET="benchmark-secret-$(date +%s)-with-enough-length"
QUERY='/rest/v1/locations?select=*&deleted_at=is.null&order=sort_order.asc.nullslast,name.asc.nullslast&limit=50'

start() { # name binary port environment
  env "$4" LIFESIGNAL_DATA_DIR="$work/$1" "$2" serve --database "$work/$1.sqlite" --port "$3" --sweep-interval 0 \
    --anonymous-per-minute 1000000000 >"$work/$1.log" 2>&1 &
  pids+=($!)
  echo $! >"$work/$1.pid"
  for _ in $(seq 1 150); do grep -q "anon key" "$work/$1.log" 2>/dev/null && break; sleep 0.2; done
  grep -q "anon key" "$work/$1.log" || { cat "$work/$1.log" >&2; exit 1; }
  python3 - "$work/$1.sqlite" "$ROWS" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=30)
db.execute("""INSERT INTO locations (id, name, slug, sort_order, status)
  WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ?)
  SELECT lower(hex(randomblob(16))), 'Location ' || n, 'location-' || n, n % 10, 'published' FROM s""", (int(sys.argv[2]),))
db.commit(); db.execute("ANALYZE"); db.commit()
PY
}
start old "$OLD" 54401 "${OLD_ENV:-LIFESIGNAL_AB=old}"
start new "$NEW" 54402 "${NEW_ENV:-LIFESIGNAL_AB=new}"
sleep 3
for round in $(seq 1 "$ROUNDS"); do
  for name in old new; do
    port=54401; [ "$name" = new ] && port=54402
    key=$(grep "anon key" "$work/$name.log" | awk '{print $3}')
    pid=$(cat "$work/$name.pid")
    before=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -H "apikey: $key" "http://127.0.0.1:$port$QUERY" >"$work/wrk.out"
    after=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    rate=$(awk '/Requests\/sec/ {print $2}' "$work/wrk.out")
    p99=$(awk '$1 == "99%" {print $2}' "$work/wrk.out")
    grep -q "Non-2xx" "$work/wrk.out" && { echo "$name answered non-2xx:" >&2; cat "$work/wrk.out" >&2; exit 1; }
    cpu=$(python3 -c "print(round(($after - $before) * 1e6 / $(getconf CLK_TCK) / ($rate * $DURATION)))")
    echo "round $round $name: $rate req/s, p99 $p99, server CPU $cpu µs a request"
  done
done
