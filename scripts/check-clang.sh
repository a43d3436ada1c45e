#!/usr/bin/env bash
# Compiles every host C++ source of a configured build with Clang in
# syntax-only mode, using the build's own flags (compile_commands.json).
# Catches what a newer compiler rejects before a machine with one does
# (Clang 16 and g++ 13 both refuse, for example, comparing std::string
# with a JSON value in C++20). CUDA sources are not checked.
#   scripts/check-clang.sh [BUILD_DIR (default: build)] [CLANG (default: clang++-16)]
# CHECK_CLANG_FLAGS adds flags (scripts/check-thread-safety.sh uses it);
# CHECK_CLANG_FILTER (a Python regex on the path) picks the sources.
# Installs nothing: apt-get install clang-16 first. Exit 1 when any file fails.
set -euo pipefail
build=${1:-build}
clang=${2:-clang++-16}
command -v "$clang" >/dev/null || { echo "check-clang: $clang not found (apt-get install clang-16)"; exit 2; }
[[ -f $build/compile_commands.json ]] || { echo "check-clang: no $build/compile_commands.json (configure first)"; exit 2; }
python3 - "$build/compile_commands.json" "$clang" "${CHECK_CLANG_FLAGS:-}" "${CHECK_CLANG_FILTER:-}" <<'PY'
import json, os, re, shlex, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
db, clang, extra, pick = sys.argv[1], sys.argv[2], shlex.split(sys.argv[3]), sys.argv[4]
root = os.path.dirname(os.path.abspath(db))
jobs = []
for e in json.load(open(db)):
    f = e["file"]
    if not f.endswith((".cc", ".cpp")) or os.path.abspath(f).startswith(root + os.sep):
        continue  # host sources only, nothing generated inside the build
    if pick and not re.search(pick, f):
        continue
    args = shlex.split(e["command"]) if "command" in e else list(e["arguments"])
    out, skip = [clang], False
    for a in args[1:]:
        if skip:
            skip = False
        elif a == "-o":
            skip = True
        elif a != "-c" and not a.startswith("-flto"):
            out.append(a)
    jobs.append((f, e["directory"], out + ["-fsyntax-only", "-Wno-unknown-warning-option"] + extra))
def run(job):
    f, cwd, cmd = job
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    return f, r.returncode, r.stderr
bad = 0
with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
    for f, rc, err in ex.map(run, jobs):
        if rc != 0:
            bad += 1
            print(f"FAIL {f}\n" + "\n".join(l for l in err.splitlines() if "error" in l)[:4000])
print(f"check-clang: {len(jobs) - bad} of {len(jobs)} sources compile with {clang}")
sys.exit(1 if bad else 0)
PY
