"""Helpers of run.sh: reading wrk and pgbench output, the SQLite baseline's SQL, and the summary.

  bench.py wrk FILE                      -> "rate p99_ms non2xx errors" of one wrk report
  bench.py pglog FILE...                 -> "p50_ms p99_ms transactions" of pgbench -l logs
  bench.py sqlite-sql [--plain] DATABASE RESPONSE
                                         -> the statement the server runs for the anonymous read,
                                            as JSON (default) or the rows alone (--plain)
  bench.py check-signed-in RESPONSE SUB  -> exits 1 unless RESPONSE holds only SUB's rows
  bench.py summary RESULTS OUT           -> the summary table, printed and written to OUT

RESULTS is the file run.sh appends to, one measurement a line: a name, then its figures.
"""
import json, re, sqlite3, statistics, sys

UNITS_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def wrk(path):
    text = open(path).read()
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    p99 = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s|m)\s*$", text, re.M)
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    p99_ms = float(p99.group(1)) * UNITS_MS[p99.group(2)] if p99 else float("nan")
    # A read error is a closed keep-alive socket at the end of the run; connect, write and
    # timeout errors mean requests that were not answered.
    failed = sum(int(errors.group(i)) for i in (1, 3, 4)) if errors else 0
    return rate, p99_ms, int(non2xx.group(1)) if non2xx else 0, failed


def pglog(paths):
    # pgbench -l: client, transaction, latency in microseconds, script, epoch, microseconds.
    latencies = sorted(int(line.split()[2]) for path in paths for line in open(path) if line.strip())
    count = len(latencies)
    return latencies[int(count * 0.5)] / 1000, latencies[min(count - 1, int(count * 0.99))] / 1000, count


def sqlite_sql(database, response, plain=False):
    """The anonymous locations read as RESTSQLBuilder writes it on SQLite (the declared policy of
    Schema+ContentPrivacy, then the filter, the order without a NULLS clause on NOT NULL columns),
    with the columns the server answered, wrapped in SQLite's JSON functions so the baseline
    produces the same JSON array the server sends."""
    rows = json.loads(open(response).read())
    columns = list(rows[0].keys())
    not_null = {row[1]: row[3] == 1 for row in sqlite3.connect(database).execute("PRAGMA table_info(locations)")}

    def term(column):
        return f'"{column}" ASC' if not_null[column] else f'"{column}" ASC NULLS LAST'

    select = (
        "SELECT " + ", ".join(f'"{c}" AS "{c}"' for c in columns) + ' FROM "locations"'
        " WHERE ((status = 'published' AND deleted_at IS NULL)) AND \"deleted_at\" IS NULL"
        f" ORDER BY {term('sort_order')}, {term('name')} LIMIT 50"
    )
    if plain:
        return select
    pairs = ", ".join(f"'{c}', \"{c}\"" for c in columns)
    return f"SELECT coalesce(json_group_array(json_object({pairs})), '[]') FROM ({select})"


def check_signed_in(response, sub):
    rows = json.loads(open(response).read())
    if not isinstance(rows, list) or not rows or any(row.get("user_id") != sub for row in rows):
        sys.exit(f"signed-in read: expected only {sub}'s rows, got {str(rows)[:300]}")
    print(f"signed-in read answers {len(rows)} rows, all of {sub}")


def ratio_text(values):
    return ", ".join(f"{v:.3f}" for v in values)


def summary(results, out):
    lines = [line.split() for line in open(results) if line.strip()]
    meta = {line[0]: " ".join(line[1:]) for line in lines if line[0].startswith("meta_")}
    first = {}
    rounds = {}
    for line in lines:
        first.setdefault(line[0], line[1:])
        if line[0].endswith("_round"):
            rounds.setdefault(line[0], []).append([float(v) for v in line[2:]])

    def figure(key, index):
        values = first.get(key)
        return float(values[index]) if values and len(values) > index else None

    rows = []
    failed = {line[0][4:]: int(line[3]) + int(line[4]) for line in lines if line[0].startswith("wrk_")}

    def row(measure, text, bar, met, runs=()):
        # A figure with refused or unanswered requests in it measures something else.
        bad = sum(count for name, count in failed.items() if any(name.startswith(run) for run in runs))
        if bad:
            text, met = f"{text}; **{bad:,} requests failed: not valid**", False
        rows.append((measure, text, bar, "—" if met is None else ("met" if met else "**not met**")))

    anon = rounds.get("anon_round", [])
    if anon:
        ratios = [r[1] / r[0] for r in anon]
        p99s = [r[3] / r[2] for r in anon]
        median, p99 = statistics.median(ratios), statistics.median(p99s)
        row(f"anonymous read, PostgreSQL, vs pgbench same SQL (median of {len(anon)} alternating rounds)",
            f"**{median:.3f}** ({ratio_text(ratios)}); server {statistics.median(r[1] for r in anon):,.0f} req/s, "
            f"pgbench {statistics.median(r[0] for r in anon):,.0f} tps", "≥ 0.65", median >= 0.65, ["anon_r"])
        row("its p99 vs pgbench's own p99 in the same round (median)",
            f"**{p99:.2f}×** ({ratio_text(p99s)}); server {statistics.median(r[3] for r in anon):.1f} ms, "
            f"pgbench {statistics.median(r[2] for r in anon):.1f} ms", "≤ 1.15×", p99 <= 1.15, ["anon_r"])
    signed = rounds.get("signed_round", [])
    if signed:
        ratios = [r[1] / r[0] for r in signed]
        median = statistics.median(ratios)
        row(f"signed-in read (own notifications, a different person each request), PostgreSQL, vs pgbench "
            f"same SQL as role and claims (median of {len(signed)})",
            f"**{median:.3f}** ({ratio_text(ratios)}); server {statistics.median(r[1] for r in signed):,.0f} req/s, "
            f"pgbench {statistics.median(r[0] for r in signed):,.0f} tps", "≥ 0.5", median >= 0.5, ["signed_r"])
    if figure("wrk_sqlite_signed", 0) is not None:
        row("signed-in read, SQLite", f"{figure('wrk_sqlite_signed', 0):,.0f} req/s, p99 {figure('wrk_sqlite_signed', 1):.1f} ms",
            "(no baseline)", None, ["sqlite_signed"])
    base = figure("pgbench_checkin", 0)
    checkins = rounds.get("checkin_round", [])
    if checkins:
        ratios = [r[1] / r[0] for r in checkins]
        median = statistics.median(ratios)
        row(f"check-in, PostgreSQL, vs pgbench same transaction (median of {len(checkins)} alternating rounds)",
            f"**{median:.3f}** ({ratio_text(ratios)}); server {statistics.median(r[1] for r in checkins):,.0f} req/s, "
            f"pgbench {statistics.median(r[0] for r in checkins):,.0f} tps", "≥ 0.7", median >= 0.7, ["checkin_r"])
    for engine, name in (("postgres", "PostgreSQL"), ("sqlite", "SQLite")):
        if engine == "postgres" and checkins:
            continue
        rate = figure(f"wrk_{engine}_checkin", 0)
        if rate is not None and base:
            row(f"check-in, {name}, vs pgbench same transaction", f"**{rate / base:.3f}** ({rate:,.0f} req/s vs {base:,.0f} tps, "
                f"p99 {figure(f'wrk_{engine}_checkin', 1):.0f} ms)", "≥ 0.7", rate / base >= 0.7, [f"{engine}_checkin"])
    local = rounds.get("sqlite_round", [])
    if local:
        ratios = [r[1] / r[0] for r in local]
        median = statistics.median(ratios)
        plain = figure("sqlite_plain", 0)
        row(f"anonymous read, SQLite, vs the same statement in-process on {first.get('sqlite_readers', ['?'])[0]} "
            f"connections (median of {len(local)})",
            f"**{median:.3f}** ({ratio_text(ratios)}); server {statistics.median(r[1] for r in local):,.0f} req/s, "
            f"in-process {statistics.median(r[0] for r in local):,.0f} q/s" + (f" ({plain:,.0f} q/s without JSON)" if plain else ""),
            "≥ 0.5", median >= 0.5, ["sqlite_r"])
        floors = [r for r in local if len(r) > 2]
        if floors:
            row("for reference: the stack's floor (Hummingbird + sqlite-nio, the in-process statement, no logic), "
                f"alternating with the two above (median of {len(floors)})",
                f"{statistics.median(r[2] for r in floors):,.0f} req/s: **{statistics.median(r[2] / r[0] for r in floors):.3f}** "
                f"of in-process; the server **{statistics.median(r[1] / r[2] for r in floors):.2f}** of the floor",
                "(reference)", None, ["sqlite_floor_r"])
    if figure("wrk_sqlite_static", 0) is not None:
        row("for reference: the server's page from memory (FloorServer --source static): HTTP with a page of this size",
            f"{figure('wrk_sqlite_static', 0):,.0f} req/s, p99 {figure('wrk_sqlite_static', 1):.1f} ms", "(reference)", None, ["sqlite_static"])
    if figure("wrk_sqlite_health", 0) is not None:
        row("for reference: GET /health on the same server (no key, no database), the HTTP stack's own rate here",
            f"{figure('wrk_sqlite_health', 0):,.0f} req/s, p99 {figure('wrk_sqlite_health', 1):.1f} ms", "(reference)", None, ["sqlite_health"])
    for engine, name in (("postgres", "PostgreSQL"), ("sqlite", "SQLite")):
        idle = figure(f"rss_{engine}_idle", 0)
        if idle is not None:
            start = figure(f"rss_{engine}_start", 0)
            before = f" ({start / 1024:.1f} MiB after start, before seeding)" if start is not None else ""
            row(f"server RSS idle after seeding, {name}", f"**{idle / 1024:.1f} MiB**{before}", "< 64 MiB", idle / 1024 < 64)
        peak, hwm = figure(f"rss_{engine}_read", 0), figure(f"rss_{engine}_read", 1)
        if peak is not None:
            row(f"server RSS under the {first.get('meta_connections', ['64'])[0]}-connection read, {name}",
                f"**{max(peak, hwm) / 1024:.1f} MiB** (sampled peak {peak / 1024:.1f}, VmHWM {hwm / 1024:.1f}; "
                f"peak {(peak - (idle or 0)) / 1024:+.1f} over idle)",
                "< 150 MiB", max(peak, hwm) / 1024 < 150)
    failures = [line for line in lines if line[0].startswith("wrk_") and (int(line[3]) or int(line[4]))]
    text = [f"REST benchmark, {meta.get('meta_date', '')}, commit {meta.get('meta_commit', '?')}, {meta.get('meta_machine', '')}",
            f"({meta.get('meta_params', '')})", "",
            "| measure | figure | bar | met |", "|---|---|---|---|"]
    text += [f"| {m} | {f} | {b} | {s} |" for m, f, b, s in rows]
    if failures:
        text += ["", "Failed requests (non-2xx, connect/write errors or timeouts): "
                 + ", ".join(f"{line[0][4:]} {line[3]} + {line[4]}" for line in failures)]
    else:
        text += ["", "Every request answered 2xx (wrk's non-2xx and socket error counts were 0 in every run)."]
    output = "\n".join(text) + "\n"
    sys.stdout.write(output)
    with open(out, "w") as handle:
        handle.write(output)


def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "wrk":
        rate, p99, non2xx, failed = wrk(args[0])
        print(f"{rate:.1f} {p99:.2f} {non2xx} {failed}")
    elif command == "pglog":
        p50, p99, count = pglog(args)
        print(f"{p50:.2f} {p99:.2f} {count}")
    elif command == "sqlite-sql":
        plain = args[0] == "--plain"
        print(sqlite_sql(*args[plain:], plain=plain))
    elif command == "check-signed-in":
        check_signed_in(args[0], args[1])
    elif command == "summary":
        summary(args[0], args[1])
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main()
