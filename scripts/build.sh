#!/usr/bin/env bash
# Configures and builds cuzk. PRESET defaults to "release" (CPU, and GPU code
# for every supported GPU when nvcc is present); PRESET=ci for
# warnings-as-errors with CUDA for sm_90. CUZK_CMAKE_ARGS adds cache settings
# (e.g. -DCMAKE_CUDA_ARCHITECTURES=89-real for one GPU's code only).
#   scripts/build.sh [TARGET...]   everything, or only the targets named
#                                  (the demo builds `cuzk` alone)
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${PRESET:-release}
# A compiler cache where one is installed (as scripts/fuzz.sh uses): a rebuild,
# or another clone of the same sources, compiles only what changed. With the
# base directory set to the clone, its entries do not depend on where the
# clone lives. Launchers given by the caller are kept.
if command -v ccache >/dev/null; then
  export CMAKE_C_COMPILER_LAUNCHER=${CMAKE_C_COMPILER_LAUNCHER:-ccache}
  export CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}
  export CMAKE_CUDA_COMPILER_LAUNCHER=${CMAKE_CUDA_COMPILER_LAUNCHER:-ccache}
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
fi
# shellcheck disable=SC2086
cmake --preset "$preset" ${CUZK_CMAKE_ARGS:-} >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build --preset "$preset" -j "$(nproc)" "${targets[@]}"
