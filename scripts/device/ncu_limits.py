#!/usr/bin/env python3
"""What limits each kernel, from Nsight Compute's CSV.

  ncu_limits.py metrics QUERY_FILE        the --metrics list to ask ncu for:
                                          the wanted metrics whose base names
                                          `ncu --query-metrics` printed in
                                          QUERY_FILE (all of them when the
                                          file lists none)
  ncu_limits.py basic                     a short list every recent ncu knows
  ncu_limits.py table CSV... [--json F]   one row per kernel (launches of the
                                          same kernel averaged, weighted by
                                          their duration): time, SM and DRAM
                                          throughput, occupancy, issue slots,
                                          the busiest pipe, the largest stall
                                          reasons, and the limit they point to

The CSV is `ncu --csv --log-file F --metrics ...` output: either the details
page (one row per metric: "Kernel Name", "Metric Name", "Metric Unit",
"Metric Value") or the raw page (`--page raw`: one row per launch, metric
names as columns, a second row of units). Lines before the header (==PROF==
and the profiled program's own output) are skipped.
"""
import csv
import json
import re
import sys

DURATION = "gpu__time_duration.sum"
SM = "sm__throughput.avg.pct_of_peak_sustained_elapsed"
DRAM = "dram__throughput.avg.pct_of_peak_sustained_elapsed"
L1 = "l1tex__throughput.avg.pct_of_peak_sustained_active"
L2 = "lts__throughput.avg.pct_of_peak_sustained_elapsed"
OCCUPANCY = "sm__warps_active.avg.pct_of_peak_sustained_active"
ISSUE = "smsp__issue_active.avg.pct_of_peak_sustained_active"
REGISTERS = "launch__registers_per_thread"
PIPES = ["alu", "fma", "fmaheavy", "fp64", "shared", "xu", "uniform"]
PIPE_METRIC = "sm__pipe_{}_cycles_active.avg.pct_of_peak_sustained_active"
LSU = "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active"
STALLS = ["long_scoreboard", "short_scoreboard", "math_pipe_throttle", "wait", "dispatch_stall", "not_selected",
          "selected", "barrier", "mio_throttle", "lg_throttle", "tex_throttle", "membar", "no_instruction",
          "branch_resolving", "drain", "imc_miss", "sleeping", "misc"]
STALL_METRIC = "smsp__average_warps_issue_stalled_{}_per_issue_active.ratio"

WANTED = ([DURATION, SM, DRAM, L1, L2, OCCUPANCY, ISSUE, REGISTERS, LSU] + [PIPE_METRIC.format(p) for p in PIPES] +
          [STALL_METRIC.format(s) for s in STALLS])

# Metrics every recent ncu knows, for when the list above is refused.
BASIC = [DURATION, SM, DRAM, OCCUPANCY, ISSUE]

# A pipe this busy, or memory this busy, is the limit; below both, the kernel
# waits on latency (its largest stall says on what).
PIPE_BOUND = 60.0
MEMORY_BOUND = 60.0
ISSUE_BOUND = 60.0


def base_name(metric):
    return metric.split(".", 1)[0]


def metric_list(query_text):
    """The wanted metrics ncu knows (by base name) on this GPU."""
    known = set(re.findall(r"^\s*([a-z0-9_]+__[a-z0-9_]+)", query_text, re.M))
    if not known:
        return list(WANTED)
    return [m for m in WANTED if base_name(m) in known]


def number(text):
    text = (text or "").strip().replace(",", "")
    if text in ("", "n/a", "N/A"):
        return None
    try:
        return float(text)
    except ValueError:
        return None


# Durations in ms whatever unit ncu printed.
TIME_SCALE = {"nsecond": 1e-6, "ns": 1e-6, "usecond": 1e-3, "us": 1e-3, "msecond": 1.0, "ms": 1.0, "second": 1e3,
              "s": 1e3}


def value(metric, unit, text):
    v = number(text)
    if v is not None and metric == DURATION:
        v *= TIME_SCALE.get((unit or "nsecond").strip(), 1e-6)
    return v


def header_rows(path):
    """The CSV rows from its header row ("ID", ...) on."""
    with open(path, newline="", errors="replace") as f:
        lines = f.readlines()
    for i, line in enumerate(lines):
        if line.startswith('"ID"'):
            return list(csv.reader(lines[i:]))
    return []


def read_launches(path):
    """{(file, launch id): {"name": kernel, metric: value}} from one CSV."""
    rows = header_rows(path)
    if not rows:
        return {}
    head = rows[0]
    col = {name: i for i, name in enumerate(head)}
    launches = {}
    if "Metric Name" in col:  # details page: one metric a row
        for r in rows[1:]:
            if len(r) < len(head):
                continue
            key = (path, r[col["ID"]])
            launch = launches.setdefault(key, {"name": r[col["Kernel Name"]]})
            metric = r[col["Metric Name"]]
            launch[metric] = value(metric, r[col.get("Metric Unit", col["Metric Name"])], r[col["Metric Value"]])
    else:  # raw page: a launch a row, units in the second row
        units = rows[1] if len(rows) > 1 and rows[1][col["ID"]] == "" else [""] * len(head)
        for r in rows[1:]:
            if len(r) < len(head) or r[col["ID"]] == "":
                continue
            launch = {"name": r[col["Kernel Name"]]}
            for name, i in col.items():
                if "__" in name:
                    launch[name] = value(name, units[i], r[i])
            launches[(path, r[col["ID"]])] = launch
    return launches


def family(name):
    """A kernel's name without its template arguments and parameters."""
    name = re.sub(r"^(void|static|__global__)\s+", "", name.strip())
    # ncu writes the anonymous namespace "unnamed>" (or "(anonymous namespace)").
    name = re.sub(r"(\(anonymous namespace\)|\bunnamed>)::", "", name)
    depth, out = 0, []
    for ch in name:
        if ch in "<(":
            if depth == 0 and ch == "(":
                break
            depth += 1
        elif ch in ">)":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out).strip().split("::")[-1] or name


def variant(name):
    """The template arguments, which tell a kernel's instantiations apart."""
    name = re.sub(r"(\(anonymous namespace\)|\bunnamed>)::", "", name)
    m = re.search(r"<(.*)>", name.split("(")[0])
    return re.sub(r"(\w+::)+", "", m.group(1)) if m else ""


def summarize(launches):
    groups = {}
    for launch in launches.values():
        groups.setdefault((family(launch["name"]), variant(launch["name"])), []).append(launch)
    rows = []
    for (fam, var), ls in groups.items():
        weights = [l.get(DURATION) or 0.0 for l in ls]
        total = sum(weights)

        def avg(metric):
            vals = [(l.get(metric), w) for l, w in zip(ls, weights) if l.get(metric) is not None]
            if not vals:
                return None
            wsum = sum(w for _, w in vals)
            if wsum <= 0:
                return sum(v for v, _ in vals) / len(vals)
            return sum(v * w for v, w in vals) / wsum

        row = {"kernel": fam, "variant": var, "launches": len(ls), "ms": total, "ms_each": total / len(ls),
               "sm": avg(SM), "dram": avg(DRAM), "l1": avg(L1), "l2": avg(L2), "occupancy": avg(OCCUPANCY),
               "issue": avg(ISSUE), "registers": avg(REGISTERS)}
        pipes = {p: avg(PIPE_METRIC.format(p)) for p in PIPES}
        pipes["lsu"] = avg(LSU)
        pipes = {p: v for p, v in pipes.items() if v is not None}
        row["pipes"] = pipes
        stalls = {s: avg(STALL_METRIC.format(s)) for s in STALLS}
        row["stalls"] = {s: v for s, v in stalls.items() if v is not None}
        row["limit"] = limit(row)
        rows.append(row)
    rows.sort(key=lambda r: -r["ms"])
    return rows


def limit(row):
    pipes = row["pipes"]
    top_pipe = max(pipes, key=pipes.get) if pipes else None
    memory = max([v for v in (row["dram"], row["l1"], row["l2"]) if v is not None], default=None)
    stalls = {s: v for s, v in row["stalls"].items() if s != "selected"}
    top_stall = max(stalls, key=stalls.get) if stalls else None
    if top_pipe is not None and pipes[top_pipe] >= PIPE_BOUND:
        return "pipe ({} {:.0f}%)".format(top_pipe, pipes[top_pipe])
    if top_pipe is None and row["sm"] is not None and row["sm"] >= PIPE_BOUND:  # no pipe metrics
        return "compute (SM {:.0f}%)".format(row["sm"])
    if memory is not None and memory >= MEMORY_BOUND:
        which = max((k for k in ("dram", "l1", "l2") if row[k] is not None), key=lambda k: row[k])
        return "memory ({} {:.0f}%)".format(which, memory)
    if row["issue"] is not None and row["issue"] >= ISSUE_BOUND:
        return "issue ({:.0f}% of cycles issue)".format(row["issue"])
    if top_stall is not None:
        return "latency ({} {:.1f})".format(top_stall, stalls[top_stall])
    if row["sm"] is not None or row["issue"] is not None:  # no stall metrics
        return "latency (no stall metrics; occupancy {})".format(fmt(row["occupancy"], "{:.0f}%"))
    return "unknown (no metrics)"


def fmt(v, spec="{:.0f}"):
    return "" if v is None else spec.format(v)


def table(rows):
    out = ["| kernel | variant | launches | ms | SM % | DRAM % | L1 % | occupancy % | issue % | regs | busiest pipes "
           "| largest stalls (cycles per issue) | limit |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        pipes = ", ".join("{} {:.0f}".format(p, v) for p, v in sorted(r["pipes"].items(), key=lambda kv: -kv[1])[:3])
        stalls = ", ".join("{} {:.1f}".format(s, v)
                           for s, v in sorted(r["stalls"].items(), key=lambda kv: -kv[1])[:3])
        out.append("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
            r["kernel"], r["variant"], r["launches"], fmt(r["ms"], "{:.2f}"), fmt(r["sm"]), fmt(r["dram"]),
            fmt(r["l1"]), fmt(r["occupancy"]), fmt(r["issue"]), fmt(r["registers"]), pipes, stalls, r["limit"]))
    return "\n".join(out)


def main(argv):
    if len(argv) == 3 and argv[1] == "metrics":
        with open(argv[2], errors="replace") as f:
            print(",".join(metric_list(f.read())))
        return 0
    if len(argv) == 2 and argv[1] == "basic":
        print(",".join(BASIC))
        return 0
    if len(argv) >= 3 and argv[1] == "table":
        args, json_out = argv[2:], None
        if "--json" in args:
            i = args.index("--json")
            json_out = args[i + 1]
            args = args[:i] + args[i + 2:]
        launches = {}
        for path in args:
            launches.update(read_launches(path))
        if not launches:
            print("ncu_limits: no kernel launches in " + " ".join(args), file=sys.stderr)
            return 1
        rows = summarize(launches)
        print(table(rows))
        if json_out:
            with open(json_out, "w") as f:
                json.dump(rows, f, indent=1)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
