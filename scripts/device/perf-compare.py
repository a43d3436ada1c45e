#!/usr/bin/env python3
"""Compares a guard run (perf-guard.sh's guard.json) with the committed
baseline (docs/perf-baseline.json) and prints every figure more than 5%
worse. Names ending in _busy are better higher; every other figure is better
lower. A count of failures (a name ending in _failed: failed proofs, a test
binary's exit) above 0 is reported as such whether or not the baseline has
it. Exit 1 when some figure is worse or something failed, 0 otherwise.

  perf-compare.py GUARD.json BASELINE.json [--tolerance 0.05]
"""
import json
import sys


def main():
    args = sys.argv[1:]
    tol = 0.05
    if "--tolerance" in args:
        i = args.index("--tolerance")
        tol = float(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    now = json.load(open(args[0]))
    base = json.load(open(args[1]))
    figures = base.get("figures", base)
    worse, rows = [], []
    for name in sorted(set(now) | set(figures)):
        if name not in now or name not in figures:
            rows.append((name, figures.get(name, "-"), now.get(name, "-"), ""))
            continue
        b, n = float(figures[name]), float(now[name])
        higher_better = name.endswith("_busy")
        if b == 0:
            change = "" if n == 0 else "new"
            bad = n > 0 and not higher_better
        else:
            rel = (n - b) / abs(b)
            change = f"{rel:+.1%}"
            bad = rel < -tol if higher_better else rel > tol
        if bad:
            worse.append(name)
        rows.append((name, figures[name], now[name], change + ("  WORSE" if bad else "")))
    width = max(len(r[0]) for r in rows) if rows else 10
    print(f"{'figure':<{width}}  {'baseline':>10}  {'now':>10}  change")
    for name, b, n, c in rows:
        print(f"{name:<{width}}  {b!s:>10}  {n!s:>10}  {c}")
    failed = [name for name in sorted(now) if name.endswith("_failed") and float(now[name]) > 0]
    if failed:
        print(f"FAILED: {', '.join(failed)}")
    if worse:
        print(f"{len(worse)} figure(s) more than {tol:.0%} worse than {args[1]}: {', '.join(worse)}")
    if worse or failed:
        return 1
    print(f"no figure more than {tol:.0%} worse than {args[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
