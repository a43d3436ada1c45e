#!/usr/bin/env bash
# Configures and builds cuzk. PRESET defaults to "release" (CPU, and GPU code
# for every supported GPU when nvcc is present); PRESET=ci for
# warnings-as-errors with CUDA for sm_90. CUZK_CMAKE_ARGS adds cache settings
# (e.g. -DCMAKE_CUDA_ARCHITECTURES=89-real for one GPU's code only).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${PRESET:-release}
# shellcheck disable=SC2086
cmake --preset "$preset" ${CUZK_CMAKE_ARGS:-} >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
