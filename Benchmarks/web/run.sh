#!/usr/bin/env bash
# The web app's pages under load, each against the API doing the same for the same kind of
# person, measured in the same run (docs/performance.md, "Web app pages").
#
#   Benchmarks/web/run.sh                                    # build, then both engines
#   BIN=/tmp/me/lifesignal Benchmarks/web/run.sh             # a binary already built (copied first)
#   CONNECTIONS=32 DURATION=10 ROUNDS=3 PEOPLE=20000 OUT=/tmp/web.md Benchmarks/web/run.sh
#   ENGINES=sqlite DURATION=3 ROUNDS=1 WARMUP=1 Benchmarks/web/run.sh   # a quick check of the script
#
# On each engine `lifesignal serve` is started and seeded with PEOPLE people
# (Benchmarks/rest/seed_people.py: a session, an access token and NOTIFICATIONS notifications
# each); web.py computes each person's session cookie and form token from the JWT secret, as
# CookieSessions makes them, so no request signs in. Checked first: GET / with person 1's cookie
# is their home page carrying the computed form token; the page's check-in answers 303 to
# /?said=checked-in, and again to /?said=already; the API's read and check-in answer 200.
# Then, with wrk at CONNECTIONS for DURATION s, ROUNDS rounds each (the order of the two sides
# alternates from round to round):
#   home: GET / with another person's cookie each request (home.lua) against the API's
#     signed-in read of the same people (GET READ_PATH with their token and the anon key,
#     Benchmarks/rest/signed_in.lua).
#   check-in: POST /check-in, form-encoded with the form token and a fresh idempotency key,
#     Sec-Fetch-Site: same-origin (checkin.lua; people 1..PEOPLE/2) against POST
#     /functions/v1/check-in (Benchmarks/rest/checkin.lua; people PEOPLE/2+1..PEOPLE). After
#     each round, the people checked in on each side must equal the check-ins the server
#     answered as done (its request counter, 303 and 200): a person checked in twice in a round
#     would get the "already" answer (within 5 minutes), which is other work. So PEOPLE/2 must
#     exceed what one side does in DURATION s: PEOPLE is raised to 2 × DURATION ×
#     CHECKINS_PER_SECOND (1,500) when smaller, and the people are made ready again before
#     every round (below).
# Before every round (web.py prepare) everyone last checked in an hour ago, with the deadline
# that follows (the home page a person using the app sees, with its countdown and times, and a
# check-in that is not too soon), and every session is marked active now, so that no request
# moves its refreshed_at on (a write CookieSessions makes at most every 10 minutes a session).
# CPU per request: the server's user + system ticks (/proc/PID/stat) across the wrk run over the
# requests wrk counted; on PostgreSQL also the cluster's processes. A 303 is the page's success;
# wrk's "Non-2xx or 3xx responses" excludes 3xx, and any it counts fails nothing but is reported.
# The summary (medians and ranges over rounds) is printed last and written to OUT, the raw
# figures to OUT.results. Only 127.0.0.1 is targeted. The measurements hold LOCK (default
# /tmp/lifesignal-bench.lock; LOCK= skips it), so do not wrap this script in flock on that file.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=Benchmarks/web
rest=Benchmarks/rest
CONNECTIONS=${CONNECTIONS:-32}
DURATION=${DURATION:-10}
ROUNDS=${ROUNDS:-3}
PEOPLE=${PEOPLE:-20000}
# Each side of a check-in round needs a person not checked in yet for every request: at least
# DURATION × CHECKINS_PER_SECOND people each (1,500 a second is above any check-in rate measured
# on 2 cores: pgbench's transaction alone made 1,151). PEOPLE is raised to that when smaller.
CHECKINS_PER_SECOND=${CHECKINS_PER_SECOND:-1500}
if [ "$PEOPLE" -lt $((2 * DURATION * CHECKINS_PER_SECOND)) ]; then
  echo "PEOPLE=$PEOPLE is too few for $DURATION s of check-ins at up to $CHECKINS_PER_SECOND a second a side: seeding $((2 * DURATION * CHECKINS_PER_SECOND))" >&2
  PEOPLE=$((2 * DURATION * CHECKINS_PER_SECOND))
fi
NOTIFICATIONS=${NOTIFICATIONS:-5}
WARMUP=${WARMUP:-5}
ENGINES=${ENGINES:-postgres sqlite}
OUT=${OUT:-/tmp/lifesignal-web-bench.md}
LOCK=${LOCK-/tmp/lifesignal-bench.lock}
SCRATCH=${SCRATCH:-.build-release}
export READ_PATH=${READ_PATH:-'/rest/v1/notifications?select=*&order=created_at.desc&limit=20'}
export WRK_THREADS=2
HALF=$((PEOPLE / 2))
# The API check-in's series in the server's request counter (/metrics).
api_route='/functions/v1/{name}'
for tool in wrk curl; do command -v $tool >/dev/null || { echo "$tool is missing (apt-get install -y wrk curl)" >&2; exit 1; }; done
case " $ENGINES " in *" postgres "*) command -v psql >/dev/null || { echo "psql is missing (apt-get install -y postgresql-client)" >&2; exit 1; } ;; esac

work=$(mktemp -d /tmp/lifesignal-web-bench.XXXXXX)
cluster=$(mktemp -d /tmp/lifesignal-pg.XXXXXX)
cleanup() {
  set +e
  [ -n "${server:-}" ] && kill "$server" 2>/dev/null
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

if [ -n "$LOCK" ]; then
  exec 9>>"$LOCK"
  flock -n 9 || { echo "waiting for $LOCK (another benchmark is running)" >&2; flock 9; }
fi
results=$work/results.txt
record() { echo "$*" >>"$results"; }
web() { python3 "$here/web.py" "$@"; }
record meta_commit "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources Package.swift || echo ' (with uncommitted changes in Sources)')"
record meta_date "$(date -u '+%Y-%m-%d %H:%M UTC'), binary built $binary_built"
record meta_machine "$(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
record meta_params "CONNECTIONS=$CONNECTIONS DURATION=$DURATION ROUNDS=$ROUNDS PEOPLE=$PEOPLE NOTIFICATIONS=$NOTIFICATIONS, wrk -t$WRK_THREADS"
record meta_clk_tck "$(getconf CLK_TCK)"
export LIFESIGNAL_JWT_SECRET="benchmark-secret-$(date +%s)-with-enough-length"

# Waits until the server has used under 50 ms of CPU in a second (it reads the change log that
# seeding and web.py prepare filled), at most 60 s.
settle() {
  local before after
  for _ in $(seq 1 60); do
    before=$(web ticks "$server"); sleep 1; after=$(web ticks "$server")
    [ $((after - before)) -lt 5 ] && return 0
  done
}

start_server() {
  local name=$1 database=$2
  # Pages are limited per client address like anonymous API requests, and wrk is one address.
  LIFESIGNAL_DATA_DIR="$work/$name" "$BIN" serve --database "$database" --port "$port" --sweep-interval 0 \
    --anonymous-per-minute 1000000000 >"$work/$name.log" 2>&1 9>&- &
  server=$!
  for _ in $(seq 1 150); do grep -q "anon key" "$work/$name.log" 2>/dev/null && break; kill -0 "$server" 2>/dev/null || break; sleep 0.2; done
  key=$(grep "anon key" "$work/$name.log" | awk '{print $3}')
  [ -n "$key" ] || { cat "$work/$name.log" >&2; exit 1; }
}

stop_server() { kill "$server"; wait "$server" 2>/dev/null || true; server=; }

pg_ticks() { if [ "$engine" = postgres ]; then web pg-ticks "$cluster/data"; else echo -1; fi; }
metrics() { curl -sf "http://127.0.0.1:$((port + 1))/metrics" >"$1"; }

# measure MEASURE ROUND wrk-args…: one wrk run, recorded as
# "run ENGINE MEASURE ROUND rate p99_ms non2xx failed requests server_ticks pg_ticks".
measure() {
  local name=$1 round=$2; shift 2
  local file=$work/${engine}_${name}_r$round.wrk s0 p0 s1 p1 stat
  s0=$(web ticks "$server"); p0=$(pg_ticks)
  wrk -t$WRK_THREADS -c"$CONNECTIONS" -d"${DURATION}s" --latency "$@" >"$file"
  s1=$(web ticks "$server"); p1=$(pg_ticks)
  stat=$(python3 "$rest/bench.py" wrk "$file")
  local requests; requests=$(web requests "$file")
  record "run $engine $name $round $stat $requests $((s1 - s0)) $([ "$p0" = -1 ] && echo -1 || echo $((p1 - p0)))"
  read -r rate p99 non2xx failed <<<"$stat"
  printf '  %-13s %8.0f req/s  p99 %6.1f ms  server %4.0f µs a request%s%s\n' "$name" "$rate" "$p99" \
    "$(python3 -c "print(($s1 - $s0) / $(getconf CLK_TCK) / $requests * 1e6)")" \
    "$([ "$p0" = -1 ] || python3 -c "print(f'  PG {($p1 - $p0) / $(getconf CLK_TCK) / $requests * 1e6:.0f} µs')")" \
    "$([ "$non2xx$failed" = 00 ] || echo "  NON-2xx/3xx $non2xx, failed $failed")"
}

# http METHOD PATH ARGS…: the status and Location of one request, its body in $work/answer.
http() {
  local method=$1 path=$2; shift 2
  curl -s -X "$method" -o "$work/answer" -D "$work/answer.head" -w '%{http_code}' "$@" "http://127.0.0.1:$port$path"
  sed -n 's/^[Ll]ocation: *\([^\r]*\).*/ \1/p' "$work/answer.head"
}

check() {
  local got=$1 want=$2 what=$3
  [ "$got" = "$want" ] || { echo "$what: answered '$got', expected '$want': $(head -c 300 "$work/answer")" >&2; exit 1; }
  echo "  $what: $got"
}

run_engine() {
  local database=$1
  echo "== $engine: serve, seeding $PEOPLE people"
  start_server "$engine" "$database"
  settle
  python3 "$rest/seed_people.py" "$engine" "$database" "$PEOPLE" "$LIFESIGNAL_JWT_SECRET" "$work/$engine.tokens" "$NOTIFICATIONS"
  web cookies "$LIFESIGNAL_JWT_SECRET" "$PEOPLE" "$work/$engine.cookies"
  head -n "$HALF" "$work/$engine.cookies" >"$work/$engine.page-people"
  tail -n +"$((HALF + 1))" "$work/$engine.tokens" >"$work/$engine.api-people"
  web prepare "$engine" "$database"
  settle

  echo "== $engine: checks"
  local cookie token sub
  read -r cookie token <"$work/$engine.cookies"
  check "$(http GET / -H "Cookie: lifesignal=$cookie")" 200 "GET / as person 1"
  web check-home "$work/answer" "$token"
  record "home_bytes $engine $(wc -c <"$work/answer")"
  check "$(http GET "$READ_PATH" -H "apikey: $key" -H "Authorization: Bearer $(head -1 "$work/$engine.tokens")")" 200 "the API's read as person 1"
  sub=$(python3 -B -c "import sys; sys.path.insert(0, '$rest'); from seed_people import person_id; print(person_id(1))")
  python3 "$rest/bench.py" check-signed-in "$work/answer" "$sub"
  local form=(-H "Cookie: lifesignal=$cookie" -H "Sec-Fetch-Site: same-origin" -H "Content-Type: application/x-www-form-urlencoded")
  check "$(http POST /check-in "${form[@]}" --data "_csrf=$token&key=check-1-$(date +%s)")" "303 /?said=checked-in" "POST /check-in as person 1"
  check "$(http POST /check-in "${form[@]}" --data "_csrf=$token&key=check-2-$(date +%s)")" "303 /?said=already" "POST /check-in again"
  check "$(http POST /check-in "${form[@]}" --data "_csrf=x$token&key=check-3-$(date +%s)")" 403 "POST /check-in with a wrong form token"
  check "$(http POST /functions/v1/check-in -H "apikey: $key" -H "Authorization: Bearer $(tail -1 "$work/$engine.tokens")" \
    -H "Content-Type: application/json" --data '{}')" 200 "POST /functions/v1/check-in as person $PEOPLE"
  record "verified $engine: home page and form token as computed; check-in 303 checked-in, then already; wrong token 403; API read and check-in 200"

  web prepare "$engine" "$database"
  settle
  echo "== $engine: warm-up, $WARMUP s each"
  wrk -t$WRK_THREADS -c"$CONNECTIONS" -d"${WARMUP}s" -s "$here/home.lua" "http://127.0.0.1:$port" >/dev/null
  TOKENS_FILE="$work/$engine.tokens" ANON_KEY="$key" \
    wrk -t$WRK_THREADS -c"$CONNECTIONS" -d"${WARMUP}s" -s "$rest/signed_in.lua" "http://127.0.0.1:$port" >/dev/null

  echo "== $engine: home page (GET /) against the API's signed-in read (GET $READ_PATH), the same people"
  local round start side
  for round in $(seq 1 "$ROUNDS"); do
    web prepare "$engine" "$database"
    settle
    echo "round $round"
    start=$((round * PEOPLE / (ROUNDS + 1)))
    for side in $( ((round % 2)) && echo "page api" || echo "api page"); do
      if [ "$side" = page ]; then
        COOKIES_FILE="$work/$engine.cookies" COOKIE_START=$start measure home_page "$round" -s "$here/home.lua" "http://127.0.0.1:$port"
      else
        TOKENS_FILE="$work/$engine.tokens" ANON_KEY="$key" TOKEN_START=$start measure home_api "$round" -s "$rest/signed_in.lua" "http://127.0.0.1:$port"
      fi
    done
  done

  echo "== $engine: check-in, POST /check-in (people 1..$HALF) against POST /functions/v1/check-in (people $((HALF + 1))..$PEOPLE)"
  local page_done api_done page_people api_people
  for round in $(seq 1 "$ROUNDS"); do
    web prepare "$engine" "$database"
    settle
    echo "round $round"
    metrics "$work/metrics.before"
    for side in $( ((round % 2)) && echo "page api" || echo "api page"); do
      if [ "$side" = page ]; then
        COOKIES_FILE="$work/$engine.page-people" KEY_PREFIX="r$round-$(date +%s)" measure checkin_page "$round" -s "$here/checkin.lua" "http://127.0.0.1:$port"
      else
        TOKENS_FILE="$work/$engine.api-people" ANON_KEY="$key" TOKEN_START=0 measure checkin_api "$round" -s "$rest/checkin.lua" "http://127.0.0.1:$port"
      fi
    done
    metrics "$work/metrics.after"
    page_done=$(( $(web metric "$work/metrics.after" POST /check-in 303) - $(web metric "$work/metrics.before" POST /check-in 303) ))
    api_done=$(( $(web metric "$work/metrics.after" POST "$api_route" 200) - $(web metric "$work/metrics.before" POST "$api_route" 200) ))
    read -r page_people api_people <<<"$(web checked-in "$engine" "$database" "$PEOPLE")"
    echo "  checked in: $page_people people by the page ($page_done answered 303), $api_people by the API ($api_done answered 200)"
    record "checkin_people $engine $round $page_people $page_done $api_people $api_done"
    if [ "$page_people" != "$page_done" ] || [ "$api_people" != "$api_done" ]; then
      echo "some check-ins found the person checked in already: raise PEOPLE (now $PEOPLE) or lower DURATION" >&2
      exit 1
    fi
  done
  record "rss $engine VmRSS $(awk '$1 == "VmRSS:" {print $2}' "/proc/$server/status") KiB, VmHWM $(awk '$1 == "VmHWM:" {print $2}' "/proc/$server/status") KiB after the rounds"
  stop_server
}

for engine in $ENGINES; do
  case $engine in
    postgres)
      PG=$(scripts/postgres-cluster start "$cluster" 9>&-)
      port=54395
      run_engine "$PG"
      ;;
    sqlite)
      port=54397
      run_engine "$work/bench.sqlite"
      ;;
    *) echo "unknown engine $engine (postgres, sqlite)" >&2; exit 2 ;;
  esac
done

echo "== summary"
web summary "$results" "$OUT"
cp "$results" "$OUT.results"
echo "(written to $OUT; the raw figures to $OUT.results)"
