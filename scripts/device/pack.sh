#!/usr/bin/env bash
# Builds `cuzk` as the README builds it with CUDA (preset `cuda`: release,
# CUDA for sm_90, the gRPC daemon included) and packs it with the shared
# libraries a bare GPU machine lacks into .carry/cuzk.tar.gz (ignored by git),
# for scripts/device/perf-guard.sh to run there. Run it here, not there (the
# GPU machine has no gRPC packages).
#   scripts/device/pack.sh [TEST...]   e.g. pack.sh engine_gpu_test groth16_cuda_test
# Test binaries named are built and packed under tests/ (perf-guard.sh's
# `tests` step runs them there); bin/ holds cuzk and cuzk-gpu-bench (the
# kernel benches, for env-ab.sh and profiling).
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake --preset cuda >/dev/null
cmake --build --preset cuda -j "$(nproc)" --target cuzk cuzk-gpu-bench "$@"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib"
cp build-cuda/bin/cuzk build-cuda/bin/cuzk-gpu-bench "$stage/bin/"
mkdir -p "$stage/tests"
for t in "$@"; do cp "build-cuda/tests/$t" "$stage/tests/"; done
# Every library ldd finds except those every Linux machine with a GPU driver
# and a C++ runtime has (libc, libm, libstdc++, libgcc_s, the loader, the
# driver); the CUDA runtime is linked statically.
ldd build-cuda/bin/cuzk build-cuda/bin/cuzk-gpu-bench "${@/#/build-cuda/tests/}" | awk '/=> \// {print $3}' | while read -r lib; do
  case $(basename "$lib") in
    libc.so*|libm.so*|libstdc++.so*|libgcc_s.so*|ld-linux*|libcuda.so*|libpthread.so*|libdl.so*|librt.so*) ;;
    *) [[ -f $stage/lib/$(basename "$lib") ]] || cp -L "$lib" "$stage/lib/" ;;
  esac
done
git rev-parse HEAD > "$stage/commit"
git status --porcelain | grep -q . && echo dirty >> "$stage/commit"
mkdir -p .carry
tar czf .carry/cuzk.tar.gz -C "$stage" .
echo "packed $(cat "$stage/commit" | tr '\n' ' ')into .carry/cuzk.tar.gz ($(du -h .carry/cuzk.tar.gz | cut -f1), $(ls "$stage/lib" | wc -l) libraries)"
