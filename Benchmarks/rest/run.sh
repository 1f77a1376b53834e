#!/usr/bin/env bash
# The /rest/v1 and check-in bar of issue 21, every row in one run, against baselines measured
# in the same run (the idle Realtime sockets are Benchmarks/realtime's).
#
#   Benchmarks/rest/run.sh                                   # build, then both engines
#   BIN=/tmp/me/lifesignal Benchmarks/rest/run.sh            # a binary already built (copied first)
#   CONNECTIONS=64 DURATION=15 ROUNDS=5 OUT=/tmp/rest.md Benchmarks/rest/run.sh
#   DURATION=5 ROUNDS=1 Benchmarks/rest/run.sh               # a quick check of the script
#   FLOOR_BIN=Benchmarks/floor/.build/release/FloorServer Benchmarks/rest/run.sh   # the floor already built
#
# On each engine the server is started, seeded (ROWS published locations; PEOPLE people with
# NOTIFICATIONS notifications and an access token each) and measured with wrk at CONNECTIONS:
#   PostgreSQL: the anonymous seed-004 read alone, then ROUNDS rounds alternating pgbench
#     (same SQL, -l logs) and the server: throughput and p99 ratios per round; the signed-in
#     read (each request another person's token, GET their notifications, filtered by row
#     policy) in ROUNDS rounds alternating with pgbench running the same SQL in a transaction
#     that takes the role and claims (signed_in.sql); check-in in ROUNDS rounds alternating
#     with pgbench running its transaction (checkin.sql; each side its own people).
#   SQLite: the anonymous read alone, then ROUNDS rounds alternating the server with the same
#     statement run in-process (sqlite_read.c) on as many connections as the server reads
#     with, and the stack's floor (Benchmarks/floor's FloorServer --source sqlite: Hummingbird
#     and sqlite-nio running that in-process statement, no logic); plus, once each, the
#     statement without JSON, FloorServer --source static answering the server's page from
#     memory (the HTTP stack with a page of that size) and GET /health; the signed-in read;
#     check-in.
#   Server RSS (VmRSS of /proc) when idle after start and after seeding, and during the
#     anonymous read (sampled every 0.2 s; VmHWM after it).
# Then pgbench's read (with its p50/p99) and check-in transaction as before. The summary table
# (measure, figure, bar, met) is printed last and written to OUT. Only 127.0.0.1 is targeted.
# The measurements hold LOCK (default /tmp/lifesignal-bench.lock; LOCK= skips it), so do not
# wrap this script in flock on the same file.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=Benchmarks/rest
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-15}
ROUNDS=${ROUNDS:-5}
ROWS=${ROWS:-10000}
PEOPLE=${PEOPLE:-100000}
NOTIFICATIONS=${NOTIFICATIONS:-5}
# Check-in: the server checks in people 1..SERVER_PEOPLE, pgbench the ones after them.
SERVER_PEOPLE=$((PEOPLE * 4 / 5))
OUT=${OUT:-/tmp/lifesignal-rest-bench.md}
LOCK=${LOCK-/tmp/lifesignal-bench.lock}
SCRATCH=${SCRATCH:-.build-release}
export WRK_THREADS=2
for tool in wrk pgbench psql curl; do command -v $tool >/dev/null || { echo "$tool is missing (apt-get install -y wrk postgresql-client curl)" >&2; exit 1; }; done

work=$(mktemp -d /tmp/lifesignal-bench.XXXXXX)
cluster=$(mktemp -d /tmp/lifesignal-pg.XXXXXX)
cleanup() {
  set +e
  [ -n "${sampler:-}" ] && kill "$sampler" 2>/dev/null
  [ -n "${server:-}" ] && kill "$server" 2>/dev/null
  [ -n "${floor:-}" ] && kill "$floor" "$static" 2>/dev/null
  scripts/postgres-cluster stop "$cluster"
  rm -rf "$work"
}
trap cleanup EXIT
if [ -z "${BIN:-}" ]; then
  swift build -c release --product lifesignal --scratch-path "$SCRATCH" >&2
  BIN=$SCRATCH/release/lifesignal
fi
# A copy, so that a rebuild elsewhere cannot swap the binary in the middle of the run.
binary_built=$(date -u -r "$BIN" '+%Y-%m-%d %H:%M UTC')
cp "$BIN" "$work/lifesignal"
BIN=$work/lifesignal
if [ -z "${FLOOR_BIN:-}" ]; then
  # A separate package with its own scratch path (its first release build takes about ten minutes).
  swift build -c release --package-path Benchmarks/floor --scratch-path Benchmarks/floor/.build --product FloorServer >&2
  FLOOR_BIN=Benchmarks/floor/.build/release/FloorServer
fi
cp "$FLOOR_BIN" "$work/FloorServer"
FLOOR_BIN=$work/FloorServer
. "$here/sqlite_baseline.sh"
build_sqlite_baseline "$work/sqlite_read"
READERS=${READERS:-$(sed -n 's/.*static let count = \([0-9]*\).*/\1/p' Sources/LifeSignalSQLite/SQLiteReaders.swift)}

if [ -n "$LOCK" ]; then
  exec 9>>"$LOCK"
  flock -n 9 || { echo "waiting for $LOCK (another benchmark is running)" >&2; flock 9; }
fi
results=$work/results.txt
record() { echo "$*" >>"$results"; }
wrkstat() { python3 "$here/bench.py" wrk "$1"; }
# The tree's commit: the binary's only if it was built from this tree as it is.
record meta_commit "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources Package.swift || echo ' (with uncommitted changes in Sources)')"
record meta_date "$(date -u '+%Y-%m-%d %H:%M UTC'), binary built $binary_built"
record meta_machine "$(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
record meta_params "CONNECTIONS=$CONNECTIONS DURATION=$DURATION ROUNDS=$ROUNDS ROWS=$ROWS PEOPLE=$PEOPLE NOTIFICATIONS=$NOTIFICATIONS, release build"
record meta_connections "$CONNECTIONS"
record sqlite_readers "$READERS"

# Children that outlive a step (PostgreSQL, the server, the sampler) get no copy of the lock's
# descriptor (9>&-): a copy would hold the lock after this script ends.
PG=$(scripts/postgres-cluster start "$cluster" 9>&-)
PSQL=(psql "$PG" -q -v ON_ERROR_STOP=1)
export LIFESIGNAL_JWT_SECRET="benchmark-secret-$(date +%s)-with-enough-length"
QUERY='/rest/v1/locations?select=*&deleted_at=is.null&order=sort_order.asc.nullslast,name.asc.nullslast&limit=50'
SQL="SELECT coalesce(json_agg(_r), '[]')::text FROM (SELECT * FROM locations WHERE deleted_at IS NULL ORDER BY sort_order ASC NULLS LAST, name ASC NULLS LAST LIMIT 50) _r;"
export READ_PATH='/rest/v1/notifications?select=*&order=created_at.desc&limit=20'
echo "$SQL" >"$work/query.sql"

# Waits until the server has used under 50 ms of CPU in a second (it reads the change log the
# seeding filled), at most 60 s, so that "idle" is idle.
settle() {
  local before after
  for _ in $(seq 1 60); do
    before=$(awk '{print $14 + $15}' "/proc/$server/stat"); sleep 1; after=$(awk '{print $14 + $15}' "/proc/$server/stat")
    [ $((after - before)) -lt 5 ] && return 0
  done
  return 0
}
rss() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$server/status"; }
start_sampler() { (while kill -0 "$server" 2>/dev/null; do rss VmRSS; sleep 0.2; done) >"$1" 2>/dev/null 9>&- & sampler=$!; }
stop_sampler() { kill "$sampler"; wait "$sampler" 2>/dev/null || true; sampler=; }

# wrk NAME ARGS…: one wrk run, its report kept and recorded as "wrk_NAME rate p99 non2xx failed".
run_wrk() {
  local name=$1; shift
  wrk -t$WRK_THREADS -c"$CONNECTIONS" -d"${DURATION}s" --latency "$@" >"$work/$name.wrk"
  record "wrk_$name $(wrkstat "$work/$name.wrk")"
}

# pgbench NAME ARGS…: prints tps; with -l, every transaction's latency goes to $work/NAME.*.
run_pgbench() {
  local name=$1; shift
  local prefix=()
  [ "$1" = -l ] && prefix=(--log-prefix="$work/$name")
  pgbench -n -c "$CONNECTIONS" -j 2 -T "$DURATION" "${prefix[@]}" "$@" "$PG" >"$work/$name.pgbench" 2>&1
  grep -q '^tps' "$work/$name.pgbench" || { cat "$work/$name.pgbench" >&2; exit 1; }
  awk '/^tps/ {print $3; exit}' "$work/$name.pgbench"
}

# The signed-in read must answer 200 with the caller's rows only, or its rate means nothing.
check_signed_in() {
  local port=$1 key=$2 token sub status
  token=$(head -1 "$work/$3.tokens")
  sub=$(python3 -c "import hashlib, uuid; print(uuid.UUID(hashlib.md5(b'u1').hexdigest()))")
  status=$(curl -s -o "$work/signed.json" -w '%{http_code}' -H "apikey: $key" -H "Authorization: Bearer $token" "http://127.0.0.1:$port$READ_PATH")
  [ "$status" = 200 ] || { echo "signed-in read answered $status: $(head -c 300 "$work/signed.json")" >&2; exit 1; }
  python3 "$here/bench.py" check-signed-in "$work/signed.json" "$sub"
}

start_server() {
  local name=$1 database=$2 port=$3
  # The anonymous limit is per client address and wrk is one address: raised out of the way.
  LIFESIGNAL_DATA_DIR="$work/$name" "$BIN" serve --database "$database" --port "$port" --sweep-interval 0 \
    --anonymous-per-minute 1000000000 >"$work/$name.log" 2>&1 9>&- &
  server=$!
  for _ in $(seq 1 150); do grep -q "anon key" "$work/$name.log" 2>/dev/null && break; kill -0 "$server" 2>/dev/null || break; sleep 0.2; done
  key=$(grep "anon key" "$work/$name.log" | awk '{print $3}')
  [ -n "$key" ] || { cat "$work/$name.log" >&2; exit 1; }
}

seed() {
  local name=$1 database=$2
  settle
  record "rss_${name}_start $(rss VmRSS)"
  local seed="INSERT INTO locations (id, name, slug, sort_order, status) SELECT $3, 'Location ' || n, 'location-' || n, n % 10, 'published' FROM $4;"
  if [ "$name" = postgres ]; then "${PSQL[@]}" -c "$seed" -c "ANALYZE locations"; else python3 - "$database" "$seed" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=30); db.executescript(sys.argv[2]); db.commit(); db.execute("ANALYZE"); db.commit()
PY
  fi
  python3 "$here/seed_people.py" "$name" "$database" "$PEOPLE" "$LIFESIGNAL_JWT_SECRET" "$work/$name.tokens" "$NOTIFICATIONS"
  settle
  record "rss_${name}_idle $(rss VmRSS)"
  echo "== $name idle: VmRSS $(sed -n "s/^rss_${name}_start //p" "$results") KiB after start, $(rss VmRSS) KiB after seeding"
}

# Anonymous read alone (warm-up and the engine's own figure); RSS sampled from here on.
read_alone() {
  local name=$1 port=$2
  start_sampler "$work/$name.rss"
  echo "== $name read: wrk -c$CONNECTIONS -d${DURATION}s GET $QUERY"
  run_wrk "${name}_read" -H "apikey: $key" "http://127.0.0.1:$port$QUERY"
  cat "$work/${name}_read.wrk"
}

stop_read_sampling() {
  stop_sampler
  record "rss_$1_read $(sort -n "$work/$1.rss" | tail -1) $(rss VmHWM)"
}

checkin() {
  local name=$1 port=$2
  echo "== $name check-in: wrk -c$CONNECTIONS -d${DURATION}s POST /functions/v1/check-in ($PEOPLE people)"
  TOKENS_FILE="$work/$name.tokens" ANON_KEY="$key" run_wrk "${name}_checkin" -s "$here/checkin.lua" "http://127.0.0.1:$port"
  cat "$work/${name}_checkin.wrk"
}

stop_server() { kill "$server"; wait "$server" 2>/dev/null || true; server=; }

# ---- PostgreSQL
start_server postgres "$PG" 54391
seed postgres "$PG" "gen_random_uuid()" "generate_series(1, $ROWS) AS n"
read_alone postgres 54391
# The machine's speed drifts by a quarter from minute to minute: pgbench and the server take
# turns, and each round's ratios compare neighbours. The medians are the figures.
for round in $(seq 1 "$ROUNDS"); do
  base=$(run_pgbench "anon_r$round" -l -f "$work/query.sql")
  read -r base_p50 base_p99 _ <<<"$(python3 "$here/bench.py" pglog "$work"/anon_r"$round".[0-9]*)"
  run_wrk "anon_r$round" -H "apikey: $key" "http://127.0.0.1:54391$QUERY"
  read -r rate p99 _ <<<"$(wrkstat "$work/anon_r$round.wrk")"
  record "anon_round $round $base $rate $base_p99 $p99"
  echo "read round $round: pgbench $base tps (p50 $base_p50 ms, p99 $base_p99 ms), server $rate req/s (p99 $p99 ms)," \
    "ratio $(python3 -c "print(f'{$rate/$base:.3f}, p99 {$p99/$base_p99:.2f}x')")"
done
stop_read_sampling postgres
check_signed_in 54391 "$key" postgres
# The baseline's own check: the transaction sees exactly person 1's rows.
"${PSQL[@]}" -At -c "BEGIN" -c "SELECT set_config('role', 'authenticated', true), set_config('request.jwt.claims', '{\"sub\":\"' || md5('u1')::uuid || '\"}', true)" \
  -c "SELECT count(*) || ' rows for person 1 under row-level security' FROM notifications" -c "COMMIT" | tail -1
for round in $(seq 1 "$ROUNDS"); do
  base=$(run_pgbench "signed_r$round" -D people="$PEOPLE" -f "$here/signed_in.sql")
  TOKENS_FILE="$work/postgres.tokens" ANON_KEY="$key" TOKEN_START=$((round * PEOPLE / (ROUNDS + 1))) \
    run_wrk "signed_r$round" -s "$here/signed_in.lua" "http://127.0.0.1:54391"
  read -r rate p99 _ <<<"$(wrkstat "$work/signed_r$round.wrk")"
  record "signed_round $round $base $rate"
  echo "signed-in round $round: pgbench $base tps, server $rate req/s (p99 $p99 ms), ratio $(python3 -c "print(f'{$rate/$base:.3f}')")"
done
# Check-in alternates with pgbench's transaction too. The server checks in people 1..SERVER_PEOPLE,
# a slice of its own each round; pgbench the people after them (checkin.sql's `first`).
for round in $(seq 1 "$ROUNDS"); do
  base=$(run_pgbench "checkin_base_r$round" -D people="$PEOPLE" -D first=$((SERVER_PEOPLE + 1)) -f "$here/checkin.sql")
  TOKENS_FILE="$work/postgres.tokens" ANON_KEY="$key" TOKEN_START=$(((round - 1) * SERVER_PEOPLE / ROUNDS)) \
    run_wrk "checkin_r$round" -s "$here/checkin.lua" "http://127.0.0.1:54391"
  read -r rate p99 _ <<<"$(wrkstat "$work/checkin_r$round.wrk")"
  record "checkin_round $round $base $rate"
  echo "check-in round $round: pgbench $base tps, server $rate req/s (p99 $p99 ms), ratio $(python3 -c "print(f'{$rate/$base:.3f}')")"
done
stop_server

# ---- SQLite
SQLITE_DB=$work/bench.sqlite
start_server sqlite "$SQLITE_DB" 54392
seed sqlite "$SQLITE_DB" "lower(hex(randomblob(16)))" \
  "(WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < $ROWS) SELECT n FROM c)"
read_alone sqlite 54392
curl -s -o "$work/locations.json" -H "apikey: $key" "http://127.0.0.1:54392$QUERY"
LOCAL_SQL=$(python3 "$here/bench.py" sqlite-sql "$SQLITE_DB" "$work/locations.json")
echo "in-process baseline on $READERS connections: $LOCAL_SQL"
# The floor: the same statement through Hummingbird and sqlite-nio on as many connections,
# and the server's own page from memory; both idle while the others are measured.
"$FLOOR_BIN" --source sqlite --path "$SQLITE_DB" --sql "$LOCAL_SQL" --readers "$READERS" --port 54393 --nio-executor >"$work/floor.log" 2>&1 9>&- &
floor=$!
"$FLOOR_BIN" --source static --path "$work/locations.json" --port 54394 --nio-executor >"$work/static.log" 2>&1 9>&- &
static=$!
for port in 54393 54394; do
  for _ in $(seq 1 100); do curl -sf -o /dev/null "http://127.0.0.1:$port/rest/v1/locations" && break; sleep 0.1; done
done
curl -sf "http://127.0.0.1:54394/rest/v1/locations" | cmp -s - "$work/locations.json" || { echo "the static floor does not answer the page" >&2; exit 1; }
for round in $(seq 1 "$ROUNDS"); do
  "$work/sqlite_read" "$SQLITE_DB" "$READERS" "$DURATION" "$LOCAL_SQL" | tee "$work/local_r$round.txt"
  base=$(awk '{print $1; exit}' "$work/local_r$round.txt")
  run_wrk "sqlite_r$round" -H "apikey: $key" "http://127.0.0.1:54392$QUERY"
  read -r rate p99 _ <<<"$(wrkstat "$work/sqlite_r$round.wrk")"
  run_wrk "sqlite_floor_r$round" "http://127.0.0.1:54393/rest/v1/locations"
  read -r floor_rate _ <<<"$(wrkstat "$work/sqlite_floor_r$round.wrk")"
  record "sqlite_round $round $base $rate $floor_rate"
  echo "SQLite read round $round: in-process $base q/s, server $rate req/s (p99 $p99 ms), ratio $(python3 -c "print(f'{$rate/$base:.3f}')");" \
    "floor $floor_rate req/s ($(python3 -c "print(f'{$floor_rate/$base:.3f}')") of in-process; the server $(python3 -c "print(f'{$rate/$floor_rate:.2f}')") of the floor)"
done
stop_read_sampling sqlite
run_wrk sqlite_static "http://127.0.0.1:54394/rest/v1/locations"
kill "$floor" "$static"; wait "$floor" "$static" 2>/dev/null || true; floor=
# For reference: what the HTTP stack answers on this machine when no database is involved.
run_wrk sqlite_health "http://127.0.0.1:54392/health"
# For the record: the statement without SQLite's JSON functions (rows fetched as text only).
PLAIN_SQL=$(python3 "$here/bench.py" sqlite-sql --plain "$SQLITE_DB" "$work/locations.json")
record "sqlite_plain $("$work/sqlite_read" "$SQLITE_DB" "$READERS" "$DURATION" "$PLAIN_SQL" | awk '{print $1}')"
check_signed_in 54392 "$key" sqlite
echo "== sqlite signed-in read: wrk -c$CONNECTIONS -d${DURATION}s GET $READ_PATH"
TOKENS_FILE="$work/sqlite.tokens" ANON_KEY="$key" run_wrk sqlite_signed -s "$here/signed_in.lua" "http://127.0.0.1:54392"
cat "$work/sqlite_signed.wrk"
checkin sqlite 54392
stop_server

# ---- pgbench alone: the read (pgbench's own latency) and the check-in transaction
echo "== pgbench baseline (read): the same SQL, -c$CONNECTIONS -T$DURATION"
base=$(run_pgbench pgbench_read -l -f "$work/query.sql")
record "pgbench_read $base $(python3 "$here/bench.py" pglog "$work"/pgbench_read.[0-9]*)"
echo "== pgbench baseline (check-in): the same statements, -c$CONNECTIONS -T$DURATION"
record "pgbench_checkin $(run_pgbench pgbench_checkin -D people="$PEOPLE" -D first=$((SERVER_PEOPLE + 1)) -f "$here/checkin.sql")"

echo "== other figures"
grep -E '^(wrk_(postgres|sqlite)_|pgbench_|sqlite_plain|rss_)' "$results" | sed 's/^/  /'
echo "  (wrk_*: req/s, p99 ms, non-2xx, failed; pgbench_read: tps, p50 ms, p99 ms, transactions; rss_*: KiB, peak and VmHWM)"
echo "== summary"
python3 "$here/bench.py" summary "$results" "$OUT"
cp "$results" "$OUT.results"
echo "(written to $OUT; the raw figures to $OUT.results)"
