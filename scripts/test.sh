#!/usr/bin/env bash
# Sets up, builds and runs every test (README command 2; CI runs this).
# Fresh random differential vectors are drawn from @noble/curves on each run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
PRESET=${PRESET:-ci} scripts/build.sh
case ${PRESET:-ci} in
  ci) bindir=build-ci ;;
  debug-asan) bindir=build-asan ;;
  cuda) bindir=build-cuda ;;
  *) bindir=build ;;
esac

fresh=$bindir/fresh-vectors
mkdir -p "$fresh"
seed=${CUZK_VECTOR_SEED:-$(od -An -N6 -tu8 /dev/urandom | tr -d ' ')}
echo "test: fresh @noble/curves vectors with seed $seed"
for gen in tests/vectors/*_vectors.mjs; do
  layer=$(basename "$gen" _vectors.mjs)
  node "$gen" --seed "$seed" --out "$fresh/$layer.json"
done
export CUZK_FRESH_VECTORS_DIR=$PWD/$fresh
ctest --test-dir "$bindir" --output-on-failure -j "$(nproc)" ${CTEST_ARGS:-}
# Clang's thread-safety analysis over the annotated layers (syntax only).
scripts/check-thread-safety.sh "$bindir"
# Every fuzz target for a few seconds (about a minute in all), from seeds made
# by cuzk's writers; its own Clang build with ASan and UBSan in build-fuzz/.
scripts/fuzz.sh ci
