#!/usr/bin/env bash
# The stack's floor for issue 21's anonymous read: the thinnest server on Hummingbird and
# postgres-nio (this package, FloorServer: one route, one statement, no logic) against pgbench
# running the same SQL on the same PostgreSQL, at CONNECTIONS, on this machine.
#
#   Benchmarks/floor/run.sh                              # build, then every variant
#   DURATION=15 ROUNDS=3 Benchmarks/floor/run.sh
#   VARIANTS="unnamed:4:nio prepared:4:nio" DURATION=5 ROUNDS=1 Benchmarks/floor/run.sh   # quick check
#   BIN=/tmp/me/FloorServer Benchmarks/floor/run.sh      # a binary already built (copied first)
#
# A variant is STATEMENT:POOL:EXECUTOR: STATEMENT `unnamed` (client.query, as LifeSignal does)
# or `prepared` (a named PostgresPreparedStatement); POOL the PostgresClient's connections;
# EXECUTOR `nio` (Swift concurrency on NIO's event loops as the generic executor, as `lifesignal
# serve`), `nio-isolated` (NIO's own installer, each job isolated to its loop, as serve did
# before de72133) or `default` (Swift's pool).
# A throwaway cluster (scripts/postgres-cluster) gets the locations table with migration 100's
# columns and indexes plus migration 105's live-order index, and ROWS published rows seeded as
# Benchmarks/rest/run.sh seeds them. Each round, for every variant (the order rotated each
# round): pgbench -n -c CONNECTIONS -j 2 -T DURATION -l on the SQL, then the variant's server is
# started, warmed up for 2 s and measured with wrk -t2 -cCONNECTIONS -dDURATION, then stopped;
# the round ends with pgbench -M prepared for reference. Each pair's ratio (server req/s ÷
# pgbench tps) and p99s are printed, then the medians. Only 127.0.0.1 is targeted.
# The measurements hold LOCK (default /tmp/lifesignal-bench.lock; LOCK= skips it), so do not
# wrap this script in flock on the same file.
set -euo pipefail
cd "$(dirname "$0")"
here=$(pwd)
root=$(cd ../.. && pwd)
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-15}
ROUNDS=${ROUNDS:-3}
ROWS=${ROWS:-10000}
VARIANTS=${VARIANTS:-unnamed:4:nio prepared:4:nio unnamed:4:default prepared:4:default unnamed:64:nio prepared:64:nio unnamed:64:default prepared:64:default}
LOCK=${LOCK-/tmp/lifesignal-bench.lock}
PORT=${PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
for tool in wrk pgbench psql curl python3; do command -v $tool >/dev/null || { echo "$tool is missing (apt-get install -y wrk postgresql-client curl)" >&2; exit 1; }; done

work=$(mktemp -d /tmp/lifesignal-floor.XXXXXX)
cluster=$(mktemp -d /tmp/lifesignal-floor-pg.XXXXXX)
server=
cleanup() {
  set +e
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  "$root/scripts/postgres-cluster" stop "$cluster"
  rm -rf "$work"
}
trap cleanup EXIT

if [ -z "${BIN:-}" ]; then
  # Its own scratch path: a separate package, built in release (the first build takes about ten minutes).
  swift build -c release --package-path "$here" --scratch-path "$here/.build" --product FloorServer >&2
  BIN=$here/.build/release/FloorServer
fi
# A copy, so that a rebuild elsewhere cannot swap the binary in the middle of the run.
cp "$BIN" "$work/FloorServer"
BIN=$work/FloorServer

if [ -n "$LOCK" ]; then
  exec 9>>"$LOCK"
  flock -n 9 || { echo "waiting for $LOCK (another benchmark is running)" >&2; flock 9; }
fi

# Children that outlive a step (PostgreSQL, the server) get no copy of the lock's descriptor.
PG=$("$root/scripts/postgres-cluster" start "$cluster" 9>&-)
PSQL=(psql "$PG" -q -v ON_ERROR_STOP=1)
# Migration 100's locations (created_by without its foreign key to auth_users, which a read
# never touches) with its indexes, and migration 105's partial index, which this read walks.
"${PSQL[@]}" <<'SQL'
CREATE TABLE locations (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name text NOT NULL,
    slug text NOT NULL UNIQUE,
    region text,
    short_description text,
    website_url text,
    status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'archived')),
    sort_order integer NOT NULL DEFAULT 0,
    created_by uuid,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
);
CREATE INDEX locations_status ON locations (status);
CREATE INDEX locations_created_by ON locations (created_by);
CREATE INDEX locations_deleted_at ON locations (deleted_at);
CREATE INDEX locations_order ON locations (sort_order, name);
CREATE INDEX locations_live_order ON locations (sort_order, name) WHERE deleted_at IS NULL;
SQL
"${PSQL[@]}" -c "INSERT INTO locations (id, name, slug, sort_order, status) SELECT gen_random_uuid(), 'Location ' || n, 'location-' || n, n % 10, 'published' FROM generate_series(1, $ROWS) AS n" -c "ANALYZE locations"
SQL="SELECT coalesce(json_agg(_r), '[]')::text FROM (SELECT * FROM locations WHERE deleted_at IS NULL ORDER BY sort_order ASC NULLS LAST, name ASC NULLS LAST LIMIT 50) _r;"
echo "$SQL" >"$work/query.sql"
echo "== $ROWS rows; the plan:"
"${PSQL[@]}" -At -c "EXPLAIN ${SQL%;}" | sed 's/^/  /'

results=$work/results.txt
commit="$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- Benchmarks/floor || echo ' (with uncommitted changes)')"
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit, $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
echo "== CONNECTIONS=$CONNECTIONS DURATION=$DURATION ROUNDS=$ROUNDS ROWS=$ROWS"

run_pgbench() {
  local name=$1; shift
  pgbench -n -c "$CONNECTIONS" -j 2 -T "$DURATION" "$@" -f "$work/query.sql" "$PG" >"$work/$name.pgbench" 2>&1
  grep -q '^tps' "$work/$name.pgbench" || { cat "$work/$name.pgbench" >&2; exit 1; }
  awk '/^tps/ {print $3; exit}' "$work/$name.pgbench"
}

start_server() {
  local statement=$1 pool=$2 executor=$3 flags=()
  [ "$executor" = nio ] && flags=(--nio-executor)
  [ "$executor" = nio-isolated ] && flags=(--nio-isolated-executor)
  "$BIN" --database "$PG" --port "$PORT" --pool "$pool" --statement "$statement" "${flags[@]}" >"$work/server.log" 2>&1 9>&- &
  server=$!
  for _ in $(seq 1 100); do
    curl -sf -o "$work/body.json" "http://127.0.0.1:$PORT/rest/v1/locations" && return 0
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
  done
  cat "$work/server.log" >&2
  exit 1
}

stop_server() { kill "$server"; wait "$server" 2>/dev/null || true; server=; }

checked=
variants=($VARIANTS)
count=${#variants[@]}
for round in $(seq 1 "$ROUNDS"); do
  for i in $(seq 0 $((count - 1))); do
    variant=${variants[$(((i + round - 1) % count))]}
    IFS=: read -r statement pool executor <<<"$variant"
    name="r${round}_${statement}_${pool}_${executor}"
    base=$(run_pgbench "$name" -l --log-prefix="$work/$name")
    read -r base_p50 base_p99 _ <<<"$(python3 "$here/stats.py" pglog "$work/$name".[0-9]*)"
    rm -f "$work/$name".[0-9]*
    start_server "$statement" "$pool" "$executor"
    # The server must answer the page, or its rate means nothing.
    case " $checked " in *" $variant "*) ;; *)
      python3 -c "import json, sys; rows = json.load(open(sys.argv[1])); assert len(rows) == min(50, int(sys.argv[2])), len(rows)" "$work/body.json" "$ROWS"
      checked="$checked $variant" ;;
    esac
    wrk -t2 -c"$CONNECTIONS" -d2s "http://127.0.0.1:$PORT/rest/v1/locations" >/dev/null
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency "http://127.0.0.1:$PORT/rest/v1/locations" >"$work/$name.wrk"
    stop_server
    read -r rate p99 non2xx failed <<<"$(python3 "$here/stats.py" wrk "$work/$name.wrk")"
    echo "round $round $variant $base $base_p99 $rate $p99 $non2xx $failed" >>"$results"
    printf 'round %s %-20s pgbench %8.1f tps (p50 %s ms, p99 %s ms)  server %8.1f req/s (p99 %s ms)  ratio %s  p99 %s×%s\n' \
      "$round" "$variant" "$base" "$base_p50" "$base_p99" "$rate" "$p99" \
      "$(python3 -c "print(f'{$rate/$base:.3f}')")" "$(python3 -c "print(f'{$p99/$base_p99:.2f}')")" \
      "$([ "$non2xx$failed" = 00 ] || echo "  ($non2xx non-2xx, $failed failed)")"
  done
  prepared=$(run_pgbench "r${round}_prepared" -M prepared)
  echo "prepared $round $prepared" >>"$results"
  echo "round $round pgbench -M prepared $prepared tps (reference)"
done

echo "== medians over $ROUNDS rounds (ratio: server req/s ÷ pgbench tps of the run just before it)"
python3 "$here/stats.py" summary "$results"
