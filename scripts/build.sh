#!/usr/bin/env bash
# Configures and builds cuzk. PRESET defaults to "release" (CPU); use
# PRESET=ci for warnings-as-errors with CUDA when nvcc is present.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${PRESET:-release}
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
