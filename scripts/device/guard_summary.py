#!/usr/bin/env python3
"""Figures of the performance guard (scripts/device/perf-guard.sh).

  guard_summary.py serve TAG LIMIT OUT STATUS0 STATUS1 RSS_PEAK EXIT
      one JSON line for a `cuzk serve` run: from bench batch's JSON, the
      nvidia-smi dmon samples, and two /status snapshots taken around the batch
  guard_summary.py collect RESULTS.jsonl GUARD.json
      the flat object perf-compare.py compares (names ending in _busy: higher
      is better; every other figure: lower is better)
"""
import json
import sys


def dmon_active(path):
    """Share of 1 s samples in which the SMs were busy (sm column > 0)."""
    col, n, active = None, 0, 0
    with open(path) as f:
        for line in f:
            parts = line.split()
            if line.startswith("# gpu"):
                col = parts[1:].index("sm")
                continue
            if line.startswith("#") or col is None or len(parts) <= col:
                continue
            try:
                v = float(parts[col])
            except ValueError:
                continue
            n += 1
            active += v > 0
    return (active / n if n else 0.0), n


def stage_means(before, after):
    out = {}
    for name, t in after.items():
        b = before.get(name, {"sum_ms": 0, "count": 0})
        n = t["count"] - b["count"]
        if n > 0:
            out[name] = round((t["sum_ms"] - b["sum_ms"]) / n, 1)
    return out


def serve(tag, limit, out, status0, status1, rss, rc):
    batch = json.load(open(f"{out}/{tag}-batch.json"))
    try:
        latency = json.load(open(f"{out}/{tag}-latency.json"))
    except (OSError, ValueError):
        latency = {}
    s0, s1 = json.load(open(status0)), json.load(open(status1))
    window = s1["uptime_s"] - s0["uptime_s"]
    busy = 0.0
    devices = {}
    for d1 in s1["device_status"]:
        d0 = next((d for d in s0["device_status"] if d["name"] == d1["name"]), None)
        if d0 is None:
            continue
        busy += d1["busy_fraction"] * s1["uptime_s"] - d0["busy_fraction"] * s0["uptime_s"]
        devices[d1["name"]] = {"stages_ms": stage_means(d0.get("stages", {}), d1.get("stages", {})),
                               "fallbacks": d1["fallbacks"]}
    ndev = max(1, len(devices))
    active, samples = dmon_active(f"{out}/{tag}-dmon.txt")
    m0, m1 = s0["memory"], s1["memory"]
    rec = {
        "step": "serve", "tag": tag, "vram_limit": limit, "exit": int(rc),
        "proofs": batch["proofs"], "failed": batch["failed"],
        "s_per_proof": batch["wall_s"] / max(1, batch["proofs"]),
        "steady_s_per_proof": batch.get("steady_s_per_proof", 0),
        "latency_s": latency.get("p50_ms", 0) / 1000,
        "gpu_active": active, "dmon_samples": samples,
        "device_busy": busy / ndev / window if window > 0 else 0,
        "rss_peak_bytes": int(rss),
        "pinned_buffers_made_during_batch":
            m1.get("pinned_buffers_allocated", 0) - m0.get("pinned_buffers_allocated", 0),
        "pinned_buffers_freed_during_batch":
            m1.get("pinned_buffers_freed", 0) - m0.get("pinned_buffers_freed", 0),
        "stages_ms": stage_means(s0.get("stages", {}), s1.get("stages", {})),
        "devices": devices,
    }
    print(json.dumps(rec))


def collect(results, dest):
    flat = {}
    for line in open(results):
        line = line.strip()
        if not line:
            continue
        r = json.loads(line)
        if r["step"] == "prove":
            p = r["line"]
            lg = p["domain"].bit_length() - 1
            flat[f"prove{lg}_wall_s"] = p["wall_s"]
            # With L, A, B1, B2 side by side (msm_lab on the main timeline)
            # each query's own time overlaps the others': only msm_lab is kept.
            side = "msm_lab" in p["stages_ms"]
            queries = ("msm_lab",) if side else ("msm_l", "msm_a", "msm_b1", "msm_b2")
            for k in ("h", "msm_h", "matvec") + queries:
                if k in p["stages_ms"]:
                    flat[f"prove{lg}_{k}_ms"] = p["stages_ms"][k]
        elif r["step"] == "test":
            flat[f"test_{r['name']}_failed"] = int(r["exit"] != 0)
        elif r["step"] == "serve":
            t = "serve" if r["vram_limit"] in ("0", 0) else "serve" + str(r["vram_limit"]).replace("GiB", "")
            if "-budget-" in r["tag"]:  # a memory.total_budget other than the guard's 110GiB
                t += "_budget_" + r["tag"].split("-budget-", 1)[1].replace("GiB", "")
            flat[f"{t}_s_per_proof"] = round(r["s_per_proof"], 2)
            flat[f"{t}_steady_s_per_proof"] = round(r["steady_s_per_proof"], 2)
            flat[f"{t}_latency_s"] = round(r["latency_s"], 2)
            flat[f"{t}_gpu_busy"] = round(r["gpu_active"], 3)
            flat[f"{t}_device_busy"] = round(r["device_busy"], 3)
            flat[f"{t}_rss_peak_gib"] = round(r["rss_peak_bytes"] / 2**30, 1)
            flat[f"{t}_failed"] = r["failed"]
            flat[f"{t}_pinned_buffers_made"] = r["pinned_buffers_made_during_batch"]
            for dev in r["devices"].values():
                for k in ("h", "msm_h", "msm_lab", "upload", "matvec"):
                    if k in dev["stages_ms"]:
                        flat[f"{t}_{k}_ms"] = dev["stages_ms"][k]
            for k in ("admit", "prepare", "interlock_wait", "finalize"):
                if k in r["stages_ms"]:
                    flat[f"{t}_{k}_ms"] = r["stages_ms"][k]
    json.dump(flat, open(dest, "w"), indent=1, sort_keys=True)
    print(json.dumps(flat, sort_keys=True))


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(*sys.argv[2:9])
    elif sys.argv[1] == "collect":
        collect(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
