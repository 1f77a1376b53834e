"""Helpers of run.sh: reading wrk and pgbench output, and the summary of the rounds.

  stats.py wrk FILE        -> "rate p99_ms non2xx failed" of one wrk report
  stats.py pglog FILE...   -> "p50_ms p99_ms transactions" of pgbench -l logs
  stats.py summary RESULTS -> one line per variant: median ratios over the rounds (markdown)

RESULTS holds one measurement a line:
  round R VARIANT PGBENCH_TPS PGBENCH_P99 RATE P99 NON2XX FAILED
  prepared R TPS          (pgbench -M prepared, for reference)
"""
import re, statistics, sys

UNITS_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def wrk(path):
    text = open(path).read()
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    p99 = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s|m)\s*$", text, re.M)
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    p99_ms = float(p99.group(1)) * UNITS_MS[p99.group(2)] if p99 else float("nan")
    # A read error is a keep-alive socket closed at the end of the run; the others are requests
    # that were not answered.
    failed = sum(int(errors.group(i)) for i in (1, 3, 4)) if errors else 0
    return f"{rate:.1f} {p99_ms:.2f} {int(non2xx.group(1)) if non2xx else 0} {failed}"


def pglog(paths):
    # pgbench -l: client, transaction, latency in microseconds, script, epoch, microseconds.
    latencies = sorted(int(line.split()[2]) for path in paths for line in open(path) if line.strip())
    count = len(latencies)
    return f"{latencies[count // 2] / 1000:.2f} {latencies[min(count - 1, int(count * 0.99))] / 1000:.2f} {count}"


def summary(path):
    rows = [line.split() for line in open(path) if line.strip()]
    prepared = {int(r[1]): float(r[2]) for r in rows if r[0] == "prepared"}
    variants = {}
    for r in rows:
        if r[0] != "round":
            continue
        rnd, name = int(r[1]), r[2]
        base, base_p99, rate, p99, non2xx, failed = map(float, r[3:9])
        v = variants.setdefault(name, {"ratio": [], "p99": [], "rate": [], "base": [], "vs_prepared": [], "bad": 0})
        v["ratio"].append(rate / base)
        v["p99"].append(p99 / base_p99)
        v["rate"].append(rate)
        v["base"].append(base)
        if rnd in prepared:
            v["vs_prepared"].append(rate / prepared[rnd])
        v["bad"] += int(non2xx + failed)
    med = statistics.median
    print("| variant (statement, pool, executor) | rounds: server ÷ pgbench | **median** | server req/s (median) | pgbench tps (median) | p99 ÷ pgbench p99 (median) | ÷ pgbench -M prepared (median) | failed |")
    print("|---|---|---|---|---|---|---|---|")
    for name, v in variants.items():
        vp = f"{med(v['vs_prepared']):.3f}" if v["vs_prepared"] else "–"
        print(
            f"| {name} | {', '.join(f'{x:.3f}' for x in v['ratio'])} | **{med(v['ratio']):.3f}** | {med(v['rate']):,.0f}"
            f" | {med(v['base']):,.0f} | {med(v['p99']):.2f}× | {vp} | {v['bad']} |"
        )
    if prepared:
        print(f"\npgbench -M prepared, per round: {', '.join(f'{t:,.0f}' for t in prepared.values())} tps (median {med(prepared.values()):,.0f})")


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    if command == "wrk":
        print(wrk(args[0]))
    elif command == "pglog":
        print(pglog(args))
    elif command == "summary":
        summary(args[0])
    else:
        sys.exit(__doc__)
