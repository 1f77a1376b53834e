"""Helpers of run.sh: reading wrk and pgbench output, and the summary of the rounds.

  stats.py wrk FILE        -> "rate p99_ms non2xx failed" of one wrk report
  stats.py pglog FILE...   -> "p50_ms p99_ms transactions" of pgbench -l logs
  stats.py summary RESULTS -> one line per variant: median ratios over the rounds (markdown)

RESULTS holds one measurement a line:
  round R VARIANT PGBENCH_TPS PGBENCH_P99 RATE P99 NON2XX FAILED
  prepared R TPS          (pgbench -M prepared, for reference)
"""
import os, statistics, sys

# wrk's and pgbench's reports are read as Benchmarks/rest reads them.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rest"))
import bench  # noqa: E402


def wrk(path):
    rate, p99_ms, non2xx, failed = bench.wrk(path)
    return f"{rate:.1f} {p99_ms:.2f} {non2xx} {failed}"


def pglog(paths):
    p50, p99, count = bench.pglog(paths)
    return f"{p50:.2f} {p99:.2f} {count}"


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
