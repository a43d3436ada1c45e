#!/usr/bin/env bash
# A/B of a change on the GPU machine, both builds in one device session, so that their
# figures come from the same chip minutes apart:
#   scripts/device/ab.sh CHANGE.patch ["cuzk-gpu-bench ARGS" ...]
# "new" is the working tree; "base" is a copy of it with CHANGE.patch (a `git diff` of the
# change under test, relative to the repository root, kept in an untracked file that
# travels with the tree) reverted. Both build cuzk-gpu-bench; the working tree also builds
# and runs TESTS (default: msm_cuda_test ntt_cuda_test). Each bench argument string then
# runs on new and on base, in that order. Logs go under $OUT.
# Example:
#   git diff msm/ > ab.patch
#   scripts/device/ab.sh ab.patch "msm --curve g1 --lg-min 24 --lg-max 27"
set -uo pipefail
cd "$(dirname "$0")/../.."
patch_file=$(realpath "${1:?usage: scripts/device/ab.sh CHANGE.patch [\"BENCH ARGS\" ...]}")
shift
OUT=${OUT:-/tmp/cuzk-out}
tests=${TESTS:-msm_cuda_test ntt_cuda_test}
base=/tmp/cuzk-ab-base
rm -rf "$base" && mkdir -p "$base" "$OUT/new" "$OUT/base"
cp -r $(ls -A | grep -v '^build') "$base"/
(cd "$base" && patch -R -p1 -s < "$patch_file") || { echo "cannot revert $patch_file"; exit 1; }
BUILD_TARGETS="$tests cuzk-gpu-bench" OUT=$OUT/new scripts/device/run.sh none > "$OUT/new/run.log" 2>&1 &
sleep 8  # run.sh unpacks the carried packages into a shared prefix first
(cd "$base" && BUILD_TARGETS="cuzk-gpu-bench" OUT=$OUT/base scripts/device/run.sh none > "$OUT/base/run.log" 2>&1)
wait
grep -h 'build done\|BUILD FAILED' "$OUT/new/run.log" "$OUT/base/run.log"
for t in $tests; do
  timeout 300 "build-dev/tests/$t" > "$OUT/$t.log" 2>&1
  echo "$t: exit $?, $(tail -1 "$OUT/$t.log")"
done
for args in "$@"; do
  for v in new base; do
    dir=.
    [[ $v == base ]] && dir=$base
    echo "== $v: cuzk-gpu-bench $args"
    # shellcheck disable=SC2086
    timeout 240 "$dir/build-dev/bin/cuzk-gpu-bench" $args 2>&1 | tee -a "$OUT/$v/bench.log" |
      grep -E '^(msm|ntt|h_step|h2d|d2h)|error|MISMATCH' | cut -c1-120
  done
done
