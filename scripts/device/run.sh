#!/usr/bin/env bash
# The whole job on a GPU machine: unpack carried packages into a private
# prefix, configure with CUDA for sm_90, build, run the `gpu` tests and the
# benchmarks, and leave logs and JSON results under $OUT.
#   scripts/device/run.sh [test|bench|all] [extra ctest -R pattern]
# Environment: BUILD_TARGETS="t1 t2 ..." builds only those targets (default:
# everything); BENCH_ARGS is passed to scripts/device/bench.sh.
set -uo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-all}
OUT=${OUT:-/tmp/cuzk-out}
mkdir -p "$OUT"
# shellcheck source=scripts/device/debs-prefix.sh
source scripts/device/debs-prefix.sh
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv | tee "$OUT/gpu.txt"
t0=$(date +%s)
cmake -S . -B build-dev -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCUZK_BUILD_SERVER=OFF > /tmp/configure.log 2>&1 || { cp /tmp/configure.log "$OUT/"; tail -30 /tmp/configure.log; exit 1; }
targets=()
[[ -n "${BUILD_TARGETS:-}" ]] && targets=(--target ${BUILD_TARGETS})
# -k 0: a target that fails to build does not stop the others; its tests then report "Not Run".
if ! cmake --build build-dev -j 16 "${targets[@]}" -- -k 0 > "$OUT/build.log" 2>&1; then
  echo "BUILD FAILED for some targets:"; grep -E "FAILED|error" "$OUT/build.log" | head -30
fi
echo "build done in $(( $(date +%s) - t0 )) s"
if [[ $mode == test || $mode == all ]]; then
  ctest --test-dir build-dev -L gpu --timeout 150 -j 4 --output-on-failure ${2:+-R "$2"} > "$OUT/ctest-gpu.log" 2>&1
  grep -E "tests passed|tests failed|\*\*\*|Failed|Not Run|Skipped" "$OUT/ctest-gpu.log" | tail -25
fi
if [[ $mode == bench || $mode == all ]]; then
  [[ -x scripts/device/bench.sh ]] && scripts/device/bench.sh build-dev "$OUT" ${BENCH_ARGS:-}
fi
