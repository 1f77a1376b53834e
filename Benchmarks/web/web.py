"""Helpers of Benchmarks/web/run.sh: the web app's cookies and form tokens, the checks, the
state between check-in rounds, CPU ticks and the summary.

  web.py cookies SECRET COUNT OUT        -> OUT: one line a person (1..COUNT, as seed_people.py
                                            seeds them): "<cookie value> <form token>"
  web.py check-home HTML TOKEN           -> exits 1 unless HTML is the signed-in home page carrying
                                            TOKEN as its form token
  web.py ticks PID [PID…]                -> user + system ticks of those processes (utime + stime)
  web.py pg-ticks CLUSTER_DATA           -> ticks of the PostgreSQL cluster: the postmaster and
                                            every process it started
  web.py requests WRK_FILE               -> the requests wrk counted
  web.py metric METRICS_TEXT METHOD ROUTE STATUS
                                         -> the server's request counter for that series (0 if none)
  web.py checked-in ENGINE DATABASE PEOPLE
                                         -> "A B": people checked in within 30 minutes among
                                            1..PEOPLE/2 (the pages') and PEOPLE/2+1..PEOPLE (the API's)
  web.py prepare ENGINE DATABASE [MINUTES]
                                         -> everyone last checked in MINUTES (60) ago, their
                                            deadline their interval after that; every session
                                            active now (so no request in the next 10 minutes
                                            moves its refreshed_at on)
  web.py summary RESULTS OUT             -> the summary table, printed and written to OUT

ENGINE is postgres (DATABASE a URL, read with psql) or sqlite (DATABASE a file).
The cookie is CookieSessions' `<session>.<person>.<base64url(HMAC-SHA256(cookie key,
"<session>.<person>"))>` and the form token base64url(HMAC-SHA256(form key, "<session>")),
both keys HKDF-SHA256 of the JWT secret (salt "lifesignal web"), base64url without padding.
"""
import base64, datetime, hashlib, hmac, os, re, sqlite3, statistics, subprocess, sys

sys.dont_write_bytecode = True  # no __pycache__ left in Benchmarks/rest
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rest"))
from seed_people import person_id, session_id  # noqa: E402  (the ids seed_people.py seeds)


def hkdf_sha256(ikm, salt, info, length=32):
    prk = hmac.new(salt, ikm, hashlib.sha256).digest()
    out, block, counter = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([counter]), hashlib.sha256).digest()
        out += block
        counter += 1
    return out[:length]


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def keys(secret):
    ikm = secret.encode()
    return (hkdf_sha256(ikm, b"lifesignal web", b"lifesignal web session cookie v1"),
            hkdf_sha256(ikm, b"lifesignal web", b"lifesignal web form token v1"))


def cookie_and_token(cookie_key, form_key, n):
    session, person = session_id(n), person_id(n)
    payload = f"{session}.{person}"
    cookie = payload + "." + b64url(hmac.new(cookie_key, payload.encode(), hashlib.sha256).digest())
    return cookie, b64url(hmac.new(form_key, session.encode(), hashlib.sha256).digest())


def cookies(secret, count, out):
    cookie_key, form_key = keys(secret)
    with open(out, "w") as f:
        for n in range(1, count + 1):
            f.write("%s %s\n" % cookie_and_token(cookie_key, form_key, n))


def check_home(path, token):
    html = open(path, encoding="utf-8").read()
    if "I'm OK" not in html and "I&#39;m OK" not in html:
        sys.exit(f"GET / with the cookie is not the home page: {html[:300]!r}")
    tokens = set(re.findall(r'name="_csrf" value="([^"]*)"', html))
    if tokens != {token}:
        sys.exit(f"the home page's form token is {tokens}, computed {token}")
    print(f"GET / with the computed cookie: the home page ({len(html.encode())} bytes), form token as computed")


def ticks(pids):
    total = 0
    for pid in pids:
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total


def pg_ticks(data_dir):
    postmaster = int(open(os.path.join(data_dir, "postmaster.pid")).readline())
    pids = [postmaster]
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if int(open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()[1]) == postmaster:
                    pids.append(int(entry))
            except (FileNotFoundError, ProcessLookupError):
                pass
    return ticks(pids)


def wrk_requests(path):
    return int(re.search(r"(\d+) requests in", open(path).read()).group(1))


def metric(path, method, route, status):
    pattern = re.compile(r"^http_requests_total\{(.*)\}\s+([\d.e+]+)\s*$")
    for line in open(path):
        m = pattern.match(line.strip())
        if m:
            labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
            if labels.get("method") == method and labels.get("route") == route and labels.get("status") == str(status):
                return int(float(m.group(2)))
    return 0


def query(engine, database, sql):
    if engine == "postgres":
        out = subprocess.run(["psql", database, "-At", "-v", "ON_ERROR_STOP=1", "-c", sql], check=True, capture_output=True, text=True).stdout
        return [line for line in out.splitlines() if line]
    db = sqlite3.connect(database, timeout=30)
    try:
        if sql.lstrip().upper().startswith("SELECT"):
            return [str(row[0]) for row in db.execute(sql)]
        db.executescript(sql)
        db.commit()
        return []
    finally:
        db.close()


def stamp(engine, minutes_ago):
    """An instant MINUTES_AGO minutes ago as SQL: PostgreSQL's now() arithmetic, or on SQLite
    Timestamp's fixed-width text (which compares in time order)."""
    if engine == "postgres":
        return f"(now() - interval '{minutes_ago} minutes')"
    when = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=minutes_ago)
    return "'" + when.strftime("%Y-%m-%dT%H:%M:%S.%f+00:00") + "'"


def checked_in(engine, database, people):
    ids = set(query(engine, database, f"SELECT id FROM users WHERE last_check_in_at > {stamp(engine, 30)}"))
    half = people // 2
    pages = sum(person_id(n) in ids for n in range(1, half + 1))
    api = sum(person_id(n) in ids for n in range(half + 1, people + 1))
    print(pages, api)


def prepare(engine, database, minutes):
    """Everyone last checked in MINUTES ago, with the deadline that follows (their interval
    later): the home page of a person who uses the app, with its countdown and times, and a
    check-in that is not too soon. Every session active now."""
    if engine == "postgres":
        last = stamp(engine, minutes)
        sets = [f"UPDATE users SET last_check_in_at = {last}, check_in_deadline = {last} + check_in_interval_seconds * interval '1 second';"]
    else:
        when = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=minutes)
        text = lambda t: "'" + t.strftime("%Y-%m-%dT%H:%M:%S.%f+00:00") + "'"
        sets = [f"UPDATE users SET last_check_in_at = {text(when)}, check_in_deadline = {text(when + datetime.timedelta(seconds=int(v)))}"
                f" WHERE check_in_interval_seconds = {int(v)};"
                for v in query(engine, database, "SELECT DISTINCT check_in_interval_seconds FROM users")]
    query(engine, database, " ".join(sets) + f" UPDATE auth_sessions SET refreshed_at = {stamp(engine, 0)};")


# ---- summary

def stats(values, digits=3, scale=1.0):
    values = [v * scale for v in values]
    fmt = f"{{:.{digits}f}}" if digits else "{:,.0f}"
    return fmt.format(statistics.median(values)) + " (" + fmt.format(min(values)) + "–" + fmt.format(max(values)) + ")"


def summary(results, out):
    lines = [line.split() for line in open(results) if line.strip()]
    meta = {line[0]: " ".join(line[1:]) for line in lines if line[0].startswith("meta_")}
    # run ENGINE MEASURE ROUND rate p99_ms non2xx failed requests server_ticks pg_ticks
    runs = {}
    for line in lines:
        if line[0] == "run":
            engine, measure = line[1], line[2]
            rate, p99, non2xx, failed, requests, server_ticks, pg = (float(v) for v in line[4:11])
            runs.setdefault((engine, measure), []).append(
                dict(rate=rate, p99=p99, bad=non2xx + failed, requests=requests,
                     cpu=server_ticks / float(meta.get("meta_clk_tck", 100)) / requests * 1e6,
                     pg=pg / float(meta.get("meta_clk_tck", 100)) / requests * 1e6 if pg >= 0 else None))
    text = ["# LifeSignal web app pages, " + meta.get("meta_date", ""), "",
            f"Build {meta.get('meta_commit', '?')}; {meta.get('meta_machine', '')}; {meta.get('meta_params', '')}.", "",
            "Medians over rounds, range in brackets. CPU per request: the server's user + system time"
            " (/proc/PID/stat) over the requests wrk counted; PG: every process of the cluster.", "",
            "| Engine | Measure | Page req/s | API req/s | Ratio page/API | p99 page / API ms (medians) | Server CPU per request, page / API µs | PG CPU per request, page / API µs | non-2xx/3xx or failed |",
            "|---|---|---|---|---|---|---|---|---|"]
    names = {"home": ("home page `GET /` (signed in)", "signed-in read"), "checkin": ("check-in `POST /check-in` (303)", "`POST /functions/v1/check-in`")}
    for engine in ("postgres", "sqlite"):
        for measure, (page_name, api_name) in names.items():
            page, api = runs.get((engine, measure + "_page")), runs.get((engine, measure + "_api"))
            if not page or not api:
                continue
            ratios = [p["rate"] / a["rate"] for p, a in zip(page, api)]
            pg = "—"
            if page[0]["pg"] is not None:
                pg = stats([r["pg"] for r in page], 0) + " / " + stats([r["pg"] for r in api], 0)
            bad = int(sum(r["bad"] for r in page + api))
            text.append(
                f"| {'PG' if engine == 'postgres' else 'SQLite'} | {page_name} vs {api_name} | {stats([r['rate'] for r in page], 0)}"
                f" | {stats([r['rate'] for r in api], 0)} | **{stats(ratios)}** | {statistics.median(r['p99'] for r in page):.1f} / {statistics.median(r['p99'] for r in api):.1f}"
                f" | {stats([r['cpu'] for r in page], 0)} / {stats([r['cpu'] for r in api], 0)} | {pg} | {bad} |")
    extra = [line for line in lines if line[0] in ("home_bytes", "verified", "rss")]
    if extra:
        text += [""] + ["- " + " ".join(line) for line in extra]
    for line in lines:
        if line[0] == "checkin_people":
            text.append(f"- {line[1]} check-in round {line[2]}: {line[3]} people checked in by the page ({line[4]} answers 303),"
                        f" {line[5]} by the API ({line[6]} answers 200)")
    text += ["", "Rounds (rate req/s, p99 ms, server CPU µs a request):"]
    for (engine, measure), rounds in sorted(runs.items()):
        text.append(f"- {engine} {measure}: " + "; ".join(f"{r['rate']:,.0f}, {r['p99']:.1f}, {r['cpu']:.0f}" for r in rounds))
    body = "\n".join(text) + "\n"
    print(body)
    open(out, "w").write(body)


def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "cookies":
        cookies(args[0], int(args[1]), args[2])
    elif command == "check-home":
        check_home(args[0], args[1])
    elif command == "ticks":
        print(ticks(args))
    elif command == "pg-ticks":
        print(pg_ticks(args[0]))
    elif command == "requests":
        print(wrk_requests(args[0]))
    elif command == "metric":
        print(metric(*args))
    elif command == "checked-in":
        checked_in(args[0], args[1], int(args[2]))
    elif command == "prepare":
        prepare(args[0], args[1], int(args[2]) if len(args) > 2 else 60)
    elif command == "summary":
        summary(args[0], args[1])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
