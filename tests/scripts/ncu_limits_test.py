#!/usr/bin/env python3
"""scripts/device/ncu_limits.py against CSVs written the way Nsight Compute
writes them (details page and raw page), with fresh random metric values each
run: the launches it reads, the duration-weighted averages per kernel and
instantiation, the units it converts, the metric list it filters by what
`ncu --query-metrics` knows, and the limit it names."""
import csv
import io
import os
import random
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "device"))
import ncu_limits as nl  # noqa: E402

IDENT = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size",
         "Grid Size", "Device", "CC"]
FWD = "void pair_forward_kernel<ff::cuda::Fp, true>(PairItems<ff::cuda::Fp, true>, const unsigned int *, unsigned int)"
BWD = ("void cuzk::msm::cuda::kernels::pair_backward_kernel<cuzk::ff::cuda::Fp, false>"
       "(cuzk::msm::cuda::kernels::PairItems<cuzk::ff::cuda::Fp, false>, const unsigned int *)")
# As ncu writes a kernel in an anonymous namespace: "unnamed>::".
NTT = "void unnamed>::ntt_pass_kernel<0, 0>(Mont<FrParams> *, unnamed>::PassArgs)"


def random_launch(rng, kind):
    """Metric values for one launch; `kind` picks which limit they show."""
    m = {nl.DURATION: rng.uniform(1e5, 3e7)}  # ns
    m[nl.SM] = rng.uniform(10, 90)
    m[nl.OCCUPANCY] = rng.uniform(10, 60)
    m[nl.REGISTERS] = rng.choice([64, 96, 128])
    for p in nl.PIPES:
        m[nl.PIPE_METRIC.format(p)] = rng.uniform(0, 40)
    m[nl.LSU] = rng.uniform(0, 30)
    for s in nl.STALLS:
        m[nl.STALL_METRIC.format(s)] = rng.uniform(0, 1.0)
    m[nl.DRAM] = rng.uniform(0, 40)
    m[nl.L1] = rng.uniform(0, 40)
    m[nl.L2] = rng.uniform(0, 40)
    m[nl.ISSUE] = rng.uniform(10, 50)
    if kind == "pipe":
        m[nl.PIPE_METRIC.format("fmaheavy")] = rng.uniform(70, 95)
    elif kind == "memory":
        m[nl.DRAM] = rng.uniform(70, 95)
    elif kind == "latency":
        m[nl.STALL_METRIC.format("long_scoreboard")] = rng.uniform(5, 20)
    return m


def details_csv(launches, noise=True):
    """The details page: one row per metric, preceded by program output."""
    buf = io.StringIO()
    if noise:
        buf.write("==PROF== Connected to process 4242 (/tmp/cuzk-bin/bin/cuzk-gpu-bench)\n")
        buf.write("{\"bench\": \"msm\", \"lg\": 27}\n")
    w = csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator="\n")
    w.writerow(IDENT + ["Section Name", "Metric Name", "Metric Unit", "Metric Value"])
    for i, (name, m) in enumerate(launches):
        for metric, v in m.items():
            unit = "nsecond" if metric == nl.DURATION else ("%" if "pct" in metric else "")
            text = "{:,.2f}".format(v)  # ncu prints thousands separators
            w.writerow([str(i), "4242", "cuzk-gpu-bench", "127.0.0.1", name, "1", "7", "(128, 1, 1)",
                        "(1000, 1, 1)", "0", "9.0", "Command line profiler metrics", metric, unit, text])
    return buf.getvalue()


def raw_csv(launches, unit="msecond"):
    """The raw page: one row per launch, units in the second row."""
    metrics = sorted({k for _, m in launches for k in m})
    buf = io.StringIO()
    w = csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator="\n")
    w.writerow(IDENT + metrics)
    w.writerow([""] * len(IDENT) + [unit if k == nl.DURATION else "%" for k in metrics])
    scale = {"msecond": 1e-6, "usecond": 1e-3, "nsecond": 1.0}[unit]
    for i, (name, m) in enumerate(launches):
        vals = ["{:.6f}".format(m[k] * scale) if k == nl.DURATION else "{:.4f}".format(m[k]) for k in metrics]
        w.writerow([str(i), "4242", "cuzk", "127.0.0.1", name, "1", "7", "(256, 1, 1)", "(512, 1, 1)", "0",
                    "9.0"] + vals)
    return buf.getvalue()


def write(text):
    f = tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False)
    f.write(text)
    f.close()
    return f.name


class NcuLimits(unittest.TestCase):
    def setUp(self):
        self.rng = random.Random(int.from_bytes(os.urandom(8), "little"))

    def check_rows(self, launches, rows):
        by_key = {(r["kernel"], r["variant"]): r for r in rows}
        groups = {}
        for name, m in launches:
            groups.setdefault((nl.family(name), nl.variant(name)), []).append(m)
        self.assertEqual(set(by_key), set(groups))
        for key, ms in groups.items():
            r = by_key[key]
            self.assertEqual(r["launches"], len(ms))
            total = sum(m[nl.DURATION] for m in ms) * 1e-6
            self.assertAlmostEqual(r["ms"], total, delta=1e-4 * total + 1e-5)
            want_sm = sum(m[nl.SM] * m[nl.DURATION] for m in ms) / sum(m[nl.DURATION] for m in ms)
            self.assertAlmostEqual(r["sm"], want_sm, delta=0.02)
        return by_key

    def test_details_page_weights_launches_by_duration(self):
        launches = [(FWD, random_launch(self.rng, "latency")) for _ in range(self.rng.randint(1, 5))]
        launches += [(BWD, random_launch(self.rng, "pipe")) for _ in range(self.rng.randint(1, 5))]
        path = write(details_csv(launches))
        try:
            rows = nl.summarize(nl.read_launches(path))
        finally:
            os.unlink(path)
        by_key = self.check_rows(launches, rows)
        self.assertEqual(rows[0]["ms"], max(r["ms"] for r in rows))  # largest first
        self.assertEqual(by_key[("pair_forward_kernel", "Fp, true")]["limit"].split()[0], "latency")
        self.assertEqual(by_key[("pair_backward_kernel", "Fp, false")]["limit"].split()[:2],
                         ["pipe", "(fmaheavy"])

    def test_raw_page_with_units_row(self):
        unit = self.rng.choice(["msecond", "usecond", "nsecond"])
        launches = [(NTT, random_launch(self.rng, "memory")) for _ in range(self.rng.randint(2, 6))]
        path = write(raw_csv(launches, unit))
        try:
            rows = nl.summarize(nl.read_launches(path))
        finally:
            os.unlink(path)
        by_key = self.check_rows(launches, rows)
        self.assertTrue(by_key[("ntt_pass_kernel", "0, 0")]["limit"].startswith("memory (dram"))

    def test_table_names_every_kernel(self):
        launches = [(FWD, random_launch(self.rng, "latency")), (NTT, random_launch(self.rng, "pipe"))]
        text = nl.table(nl.summarize(nl.read_launches(write(details_csv(launches, noise=False)))))
        self.assertEqual(len(text.splitlines()), 4)
        self.assertIn("| pair_forward_kernel | Fp, true |", text)
        self.assertIn("| ntt_pass_kernel | 0, 0 |", text)

    def test_metric_list_keeps_what_the_gpu_knows(self):
        known = self.rng.sample(nl.WANTED, self.rng.randint(1, len(nl.WANTED) - 1))
        query = "Device NVIDIA H200\n----\nMetric Name    Metric Description\n" + "".join(
            "{}    some description\n".format(nl.base_name(m)) for m in known)
        got = nl.metric_list(query)
        self.assertEqual(set(got), {m for m in nl.WANTED if nl.base_name(m) in {nl.base_name(k) for k in known}})
        self.assertEqual(nl.metric_list("ncu: no device\n"), nl.WANTED)

    def test_basic_metrics_still_name_a_limit(self):
        busy = random_launch(self.rng, "latency")
        busy[nl.SM] = self.rng.uniform(70, 95)
        idle = random_launch(self.rng, "latency")
        idle[nl.SM] = self.rng.uniform(5, 50)
        launches = [(FWD, {k: v for k, v in busy.items() if k in nl.BASIC}),
                    (NTT, {k: v for k, v in idle.items() if k in nl.BASIC})]
        path = write(details_csv(launches))
        try:
            by_key = self.check_rows(launches, nl.summarize(nl.read_launches(path)))
        finally:
            os.unlink(path)
        self.assertTrue(by_key[("pair_forward_kernel", "Fp, true")]["limit"].startswith("compute (SM"))
        self.assertTrue(by_key[("ntt_pass_kernel", "0, 0")]["limit"].startswith("latency (no stall metrics"))

    def test_no_header_no_launches(self):
        path = write("==PROF== nothing profiled\n")
        try:
            self.assertEqual(nl.read_launches(path), {})
            self.assertEqual(nl.main(["ncu_limits.py", "table", path]), 1)
        finally:
            os.unlink(path)


if __name__ == "__main__":
    unittest.main(verbosity=2)
