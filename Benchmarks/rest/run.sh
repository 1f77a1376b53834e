#!/usr/bin/env bash
# Server throughput against pgbench running the same SQL (issue: server speed).
#
#   Benchmarks/rest/run.sh            # PostgreSQL (throwaway cluster) and SQLite
#   CONNECTIONS=64 DURATION=15 ROUNDS=5 Benchmarks/rest/run.sh
#
# Builds `lifesignal` in release (SCRATCH, default .build-release), then, on each engine:
#   read:     GET /rest/v1/locations with the seed-004 list query, a page of 50 of 10,000 rows;
#   check-in: POST /functions/v1/check-in, every request a different person (PEOPLE of them).
# pgbench runs the same SQL at the same concurrency on the same PostgreSQL as the baseline.
# Only 127.0.0.1 is ever targeted.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=Benchmarks/rest
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-15}
ROUNDS=${ROUNDS:-5}
ROWS=${ROWS:-10000}
PEOPLE=${PEOPLE:-100000}
export WRK_THREADS=2
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }

SCRATCH=${SCRATCH:-.build-release}
swift build -c release --product lifesignal --scratch-path "$SCRATCH" >&2
BIN=$SCRATCH/release/lifesignal
work=$(mktemp -d /tmp/lifesignal-bench.XXXXXX)
cluster=$(mktemp -d /tmp/lifesignal-pg.XXXXXX)
cleanup() { [ -n "${server:-}" ] && kill "$server" 2>/dev/null; scripts/postgres-cluster stop "$cluster"; rm -rf "$work"; }
trap cleanup EXIT
PG=$(scripts/postgres-cluster start "$cluster")
PSQL=(psql "$PG" -q -v ON_ERROR_STOP=1)
export LIFESIGNAL_JWT_SECRET="benchmark-secret-$(date +%s)-with-enough-length"
QUERY='/rest/v1/locations?select=*&deleted_at=is.null&order=sort_order.asc.nullslast,name.asc.nullslast&limit=50'
SQL="SELECT coalesce(json_agg(_r), '[]')::text FROM (SELECT * FROM locations WHERE deleted_at IS NULL ORDER BY sort_order ASC NULLS LAST, name ASC NULLS LAST LIMIT 50) _r;"

echo "$SQL" > "$work/query.sql"

run_engine() {
  local name=$1 database=$2 port=$3
  LIFESIGNAL_DATA_DIR="$work/$name" "$BIN" serve --database "$database" --port "$port" --sweep-interval 0 >"$work/$name.log" 2>&1 &
  server=$!
  for _ in $(seq 1 100); do grep -q "anon key" "$work/$name.log" 2>/dev/null && break; sleep 0.2; done
  local key; key=$(grep "anon key" "$work/$name.log" | awk '{print $3}')
  local seed="INSERT INTO locations (id, name, slug, sort_order, status) SELECT $4, 'Location ' || n, 'location-' || n, n % 10, 'published' FROM $5;"
  if [ "$name" = postgres ]; then "${PSQL[@]}" -c "$seed" -c "ANALYZE locations"; else python3 - "$database" "$seed" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=30); db.executescript(sys.argv[2]); db.commit(); db.execute("ANALYZE"); db.commit()
PY
  fi
  python3 "$here/seed_people.py" "$name" "$database" "$PEOPLE" "$LIFESIGNAL_JWT_SECRET" "$work/$name.tokens"

  echo "== $name read: wrk -c$CONNECTIONS -d${DURATION}s GET $QUERY"
  wrk -t$WRK_THREADS -c"$CONNECTIONS" -d"${DURATION}s" --latency -H "apikey: $key" "http://127.0.0.1:$port$QUERY" | tee "$work/$name.read.wrk"
  if [ "$name" = postgres ]; then
    # The machine's speed drifts by a quarter from minute to minute: pgbench and the server
    # take turns, and each round's ratio compares neighbours. The median is the figure.
    for round in $(seq 1 "$ROUNDS"); do
      local base rate
      base=$(pgbench -n -c "$CONNECTIONS" -j 2 -T "$DURATION" -f "$work/query.sql" "$PG" | awk '/^tps/ {print $3}')
      rate=$(wrk -t$WRK_THREADS -c"$CONNECTIONS" -d"${DURATION}s" -H "apikey: $key" "http://127.0.0.1:$port$QUERY" | awk '/Requests\/sec/ {print $2}')
      echo "round $round: pgbench $base tps, server $rate req/s, ratio $(python3 -c "print(f'{$rate/$base:.3f}')")" | tee -a "$work/rounds.txt"
    done
  fi
  echo "== $name check-in: wrk -c$CONNECTIONS -d${DURATION}s POST /functions/v1/check-in ($PEOPLE people)"
  TOKENS_FILE="$work/$name.tokens" ANON_KEY="$key" \
    wrk -t$WRK_THREADS -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$here/checkin.lua" "http://127.0.0.1:$port" | tee "$work/$name.checkin.wrk"
  kill "$server"; wait "$server" 2>/dev/null || true; server=
}

run_engine postgres "$PG" 54391 "gen_random_uuid()" "generate_series(1, $ROWS) AS n"
SQLITE_SEED="(WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < $ROWS) SELECT n FROM c)"
run_engine sqlite "$work/bench.sqlite" 54392 "lower(hex(randomblob(16)))" "$SQLITE_SEED"

echo "== pgbench baseline (read): the same SQL, -c$CONNECTIONS -T$DURATION"
# -l logs every transaction's latency, so pgbench's own p99 is known: the floor for any server.
(cd "$work" && pgbench -n -c "$CONNECTIONS" -j 2 -T "$DURATION" -l --log-prefix=pgbench_read -f "$work/query.sql" "$PG") | tee "$work/pgbench.read.txt"
cat "$work"/pgbench_read.* | awk '{print $3}' | sort -n | awk '{a[NR]=$1} END {printf "pgbench read latency: p50 %.2f ms, p99 %.2f ms (%d transactions)\n", a[int(NR*0.5)]/1000, a[int(NR*0.99)]/1000, NR}' \
  | tee -a "$work/pgbench.read.txt"
echo "== pgbench baseline (check-in): the same statements, -c$CONNECTIONS -T$DURATION"
pgbench -n -c "$CONNECTIONS" -j 2 -T "$DURATION" -D people="$PEOPLE" -f "$here/checkin.sql" "$PG" | tee "$work/pgbench.checkin.txt"

summary() {
  local what=$1 wrkfile=$2 pgfile=$3
  local rate p99 base non2xx
  rate=$(awk '/Requests\/sec/ {print $2}' "$wrkfile")
  p99=$(awk '/ 99%/ {print $2}' "$wrkfile")
  non2xx=$(awk '/Non-2xx/ {print $5}' "$wrkfile")
  base=$(awk '/^tps/ {print $3; exit}' "$pgfile")
  echo "== summary $what: $rate req/s (p99 $p99, non-2xx ${non2xx:-0}) vs pgbench $base tps: ratio $(python3 -c "print(f'{$rate/$base:.2f}')")"
}
grep "pgbench read latency" "$work/pgbench.read.txt"
cat "$work/rounds.txt"
echo "== summary read on PostgreSQL, alternating rounds: median ratio $(awk '{print $NF}' "$work/rounds.txt" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}') of $ROUNDS"
summary "read on PostgreSQL" "$work/postgres.read.wrk" "$work/pgbench.read.txt"
summary "read on SQLite" "$work/sqlite.read.wrk" "$work/pgbench.read.txt"
summary "check-in on PostgreSQL" "$work/postgres.checkin.wrk" "$work/pgbench.checkin.txt"
summary "check-in on SQLite" "$work/sqlite.checkin.wrk" "$work/pgbench.checkin.txt"
