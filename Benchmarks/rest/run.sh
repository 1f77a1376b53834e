#!/usr/bin/env bash
# /rest/v1 read throughput against pgbench running the same SQL (issue: server speed).
#
#   Benchmarks/rest/run.sh            # PostgreSQL (throwaway cluster) and SQLite
#   CONNECTIONS=64 DURATION=15 Benchmarks/rest/run.sh
#
# Builds `lifesignal` in release (.build-release), seeds 10,000 locations, and measures the
# seed-004 list query with a page of 50 at the same concurrency with wrk and with pgbench.
# Only 127.0.0.1 is ever targeted.
set -euo pipefail
cd "$(dirname "$0")/../.."
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-15}
ROWS=${ROWS:-10000}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }

swift build -c release --product lifesignal --scratch-path .build-release >&2
BIN=.build-release/release/lifesignal
work=$(mktemp -d /tmp/lifesignal-bench.XXXXXX)
cluster=$(mktemp -d /tmp/lifesignal-pg.XXXXXX)
cleanup() { [ -n "${server:-}" ] && kill "$server" 2>/dev/null; scripts/postgres-cluster stop "$cluster"; rm -rf "$work"; }
trap cleanup EXIT
PG=$(scripts/postgres-cluster start "$cluster")
PSQL=(psql "$PG" -q -v ON_ERROR_STOP=1)
QUERY='/rest/v1/locations?select=*&deleted_at=is.null&order=sort_order.asc.nullslast,name.asc.nullslast&limit=50'
SQL="SELECT coalesce(json_agg(_r), '[]')::text FROM (SELECT * FROM locations WHERE deleted_at IS NULL ORDER BY sort_order ASC NULLS LAST, name ASC NULLS LAST LIMIT 50) _r;"

run_engine() {
  local name=$1 database=$2 port=$3
  LIFESIGNAL_DATA_DIR="$work/$name" "$BIN" serve --database "$database" --port "$port" --sweep-interval 0 >"$work/$name.log" 2>&1 &
  server=$!
  for _ in $(seq 1 100); do grep -q "anon key" "$work/$name.log" 2>/dev/null && break; sleep 0.2; done
  local key; key=$(grep "anon key" "$work/$name.log" | awk '{print $3}')
  local seed="INSERT INTO locations (id, name, slug, sort_order, status) SELECT $4, 'Location ' || n, 'location-' || n, n % 10, 'published' FROM $5;"
  if [ "$name" = postgres ]; then "${PSQL[@]}" -c "$seed" -c "ANALYZE locations"; else sqlite3 "$database" "$seed" 2>/dev/null || python3 - "$database" "$seed" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1]); db.executescript(sys.argv[2]); db.commit()
PY
  fi
  echo "== $name: wrk -c$CONNECTIONS -d${DURATION}s GET $QUERY"
  wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -H "apikey: $key" "http://127.0.0.1:$port$QUERY" | tee "$work/$name.wrk"
  kill "$server"; wait "$server" 2>/dev/null || true; server=
}

run_engine postgres "$PG" 54391 "gen_random_uuid()" "generate_series(1, $ROWS) AS n"
SQLITE_SEED="(WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < $ROWS) SELECT n FROM c)"
run_engine sqlite "$work/bench.sqlite" 54392 "lower(hex(randomblob(16)))" "$SQLITE_SEED"

echo "== pgbench baseline: the same SQL, -c$CONNECTIONS -T$DURATION"
echo "$SQL" > "$work/query.sql"
pgbench -n -c "$CONNECTIONS" -j 2 -T "$DURATION" -f "$work/query.sql" "$PG" | tee "$work/pgbench.txt"

rest=$(awk '/Requests\/sec/ {print $2}' "$work/postgres.wrk")
base=$(awk '/^tps/ {print $3; exit}' "$work/pgbench.txt")
p99=$(awk '/ 99%/ {print $2}' "$work/postgres.wrk")
echo "== summary: /rest/v1 on PostgreSQL $rest req/s (p99 $p99) vs pgbench $base tps: ratio $(python3 -c "print(f'{$rest/$base:.2f}')")"
