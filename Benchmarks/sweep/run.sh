#!/usr/bin/env bash
# Times one missed-check-in sweep in a release build.
#
#   Benchmarks/sweep/run.sh postgres [postgres://user@host:port/db]   # 1,000,000 users, 10,000 due
#   Benchmarks/sweep/run.sh sqlite                                     # 100,000 users, 10,000 due
#
# PostgreSQL: with no URL, a throwaway cluster is started with scripts/postgres-cluster. A
# fresh database `lifesignal_bench_sweep` is created on the cluster each run. USERS and DUE
# override the sizes; STALE (100,000) notifications past retention are seeded for the clean-up.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
engine="${1:-postgres}"

swift build -c release --package-path "$here" --product SweepBenchmark >&2
binary="$(swift build -c release --package-path "$here" --show-bin-path)/SweepBenchmark"

case "$engine" in
postgres)
    url="${2:-}"
    if [ -z "$url" ]; then
        url="$("$root/scripts/postgres-cluster" start "$(mktemp -d /tmp/lifesignal-bench.XXXXXX)")"
    fi
    psql "$url" -q -c "DROP DATABASE IF EXISTS lifesignal_bench_sweep" -c "CREATE DATABASE lifesignal_bench_sweep"
    bench_url="${url%/*}/lifesignal_bench_sweep"
    "$binary" "$bench_url" "${USERS:-1000000}" "${DUE:-10000}" "${STALE:-100000}"
    ;;
sqlite)
    file="$(mktemp -d /tmp/lifesignal-bench.XXXXXX)/sweep.sqlite"
    "$binary" "$file" "${USERS:-100000}" "${DUE:-10000}" "${STALE:-100000}"
    ;;
*)
    echo "usage: $0 postgres [url] | sqlite" >&2
    exit 2
    ;;
esac
