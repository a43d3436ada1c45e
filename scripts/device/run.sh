#!/usr/bin/env bash
# The whole job on a GPU machine: unpack carried packages into a private
# prefix, configure with CUDA for sm_90, build, run the `gpu` tests and the
# benchmarks, and leave logs and JSON results under $OUT.
#   scripts/device/run.sh [test|bench|all] [extra ctest -R pattern]
set -uo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-all}
OUT=${OUT:-/tmp/cuzk-out}
mkdir -p "$OUT"
prefix=/tmp/cuzk-prefix
mkdir -p $prefix
for f in .deb/*.deb; do dpkg -x "$f" $prefix; done
export CMAKE_PREFIX_PATH=$prefix/usr:$prefix/usr/lib/x86_64-linux-gnu/cmake
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv | tee "$OUT/gpu.txt"
cmake -S . -B build-dev -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCUZK_BUILD_SERVER=OFF > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build build-dev -j 16 > "$OUT/build.log" 2>&1 || { grep -E "error|Error" "$OUT/build.log" | head -40; exit 1; }
echo "build ok"
if [[ $mode == test || $mode == all ]]; then
  ctest --test-dir build-dev -L gpu --output-on-failure ${2:+-R "$2"} 2>&1 | tee "$OUT/ctest-gpu.log" | tail -25
fi
if [[ $mode == bench || $mode == all ]]; then
  [[ -x scripts/device/bench.sh ]] && scripts/device/bench.sh build-dev "$OUT"
fi
