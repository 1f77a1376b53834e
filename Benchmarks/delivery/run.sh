#!/usr/bin/env bash
# One sweep escalates PEOPLE missed check-ins (10,000), and their messages go out by SMS, email
# and push through the senders `serve` builds, to the provider stand-ins of Tests/Compatibility
# (Twilio, aiosmtpd, APNs over HTTP/2) on 127.0.0.1. Release build.
#
#   Benchmarks/delivery/run.sh postgres [postgres://user@host:port/db]
#   Benchmarks/delivery/run.sh sqlite
#   Benchmarks/delivery/run.sh providers      # the senders alone against the stand-ins, no database
#
# PostgreSQL: with no URL, a throwaway cluster is started with scripts/postgres-cluster (and
# stopped at the end); a fresh database `lifesignal_bench_delivery` is made each run.
# MODE=recording runs the same sweep with senders that only record (the server's side alone).
# BENCH_CONCURRENCY: the ledger's sends in flight (default 16, serve's). MESSAGES: a channel's
# messages in `providers` (5,000). The stand-ins' output, each line after the time it was
# printed, stays in the folder printed at the start.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
engine="${1:-postgres}"
case "$engine" in postgres|sqlite|providers) ;; *) echo "usage: $0 postgres [url] | sqlite | providers" >&2; exit 2 ;; esac

swift build -c release --package-path "$here" --product DeliveryBenchmark >&2
binary="$(swift build -c release --package-path "$here" --show-bin-path)/DeliveryBenchmark"
python="${LIFESIGNAL_TEST_PYTHON:-$("$root/Tests/Compatibility/python-venv" "$root/.build/python-venv")}"

work="$(mktemp -d /tmp/lifesignal-bench-delivery.XXXXXX)"
echo "commit $(git -C "$root" rev-parse --short HEAD) ($(git -C "$root" status --porcelain --untracked-files=no | wc -l) files changed in the tree), $(nproc) cores ($(lscpu | sed -n 's/^Model name: *//p')), $(date -u +%FT%TZ); output in $work"

# The stand-ins run until their input closes: a FIFO this script holds open (fd 3) and closes
# when it exits, however it exits. Children never inherit fd 3, or they would hold it open.
mkfifo "$work/hold"
exec 3<>"$work/hold"
pids=()
cluster=""
cleanup() {
    exec 3>&-
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    if [ -n "$cluster" ]; then "$root/scripts/postgres-cluster" stop "$cluster" >&2 || true; fi
}
trap cleanup EXIT

# Starts a stand-in with its output stamped into $work/NAME.log; waits for its READY line and
# sets `port` (not in a subshell: the stand-in's pid must reach `pids`).
standin() {
    local name="$1"
    shift
    mkdir -p "$work/$name"
    "$python" -u "$root/Tests/Compatibility/$1" "${@:2}" <"$work/hold" 3<&- \
        > >("$python" -u "$here/stamp.py" >"$work/$name.log" 3<&-) &
    pids+=($!)
    for _ in $(seq 300); do
        if port="$(sed -n 's/^[0-9.]* READY \([0-9]*\)$/\1/p' "$work/$name.log" 2>/dev/null)" && [ -n "$port" ]; then
            return
        fi
        sleep 0.1
    done
    echo "the $name stand-in did not start" >&2
    exit 1
}

sid="AC$(printf '5%.0s' $(seq 32))"
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$work/apns-key.p8" 2>/dev/null
standin twilio twilio_standin.py "$sid" bench-auth-token
BENCH_TWILIO_PORT="$port"
standin smtp smtp_server.py plain "$work/smtp"
BENCH_SMTP_PORT="$port"
standin apns apns_standin.py "$work/apns" "$(openssl pkey -in "$work/apns-key.p8" -pubout)" TEAM123456 KEY1234567 org.lifesignal.app
BENCH_APNS_PORT="$port"
export BENCH_TWILIO_PORT BENCH_SMTP_PORT BENCH_APNS_PORT
export BENCH_STANDIN_PIDS="${pids[*]}"
export BENCH_APNS_CERT="$work/apns/cert.pem" BENCH_APNS_KEY="$work/apns-key.p8" BENCH_LOGS="$work"
echo "stand-ins: Twilio :$BENCH_TWILIO_PORT, SMTP :$BENCH_SMTP_PORT, APNs :$BENCH_APNS_PORT"

# The binary's own exit status (1: not every message arrived exactly once) is the script's.
TIMEFORMAT="benchmark process: %R s wall, %U s user, %S s system"
status=0

mode="${MODE:-standins}"
case "$engine" in
postgres)
    url="${2:-}"
    if [ -z "$url" ]; then
        cluster="$(mktemp -d /tmp/lifesignal-bench.XXXXXX)"
        url="$("$root/scripts/postgres-cluster" start "$cluster")"
        export BENCH_POSTMASTER="$(head -1 "$cluster/data/postmaster.pid" 2>/dev/null || true)"
    fi
    psql "$url" -q -c "DROP DATABASE IF EXISTS lifesignal_bench_delivery" -c "CREATE DATABASE lifesignal_bench_delivery"
    psql "$url" -Atq -c "SHOW server_version" | sed 's/^/PostgreSQL /'
    time "$binary" "$mode" "${url%/*}/lifesignal_bench_delivery" "${PEOPLE:-10000}" 3<&- || status=$?
    ;;
sqlite)
    time "$binary" "$mode" "$work/delivery.sqlite" "${PEOPLE:-10000}" 3<&- || status=$?
    ;;
providers)
    time "$binary" providers "${MESSAGES:-5000}" 3<&- || status=$?
    ;;
esac
exit "$status"
