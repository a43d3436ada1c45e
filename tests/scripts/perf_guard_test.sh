#!/usr/bin/env bash
# scripts/device/perf-guard.sh's tests step, without a GPU: a packed build
# whose "test binaries" are scripts (one passes, one fails, groth16_cuda_test
# in its three shards) and an nvidia-smi that only answers. The step must
# return (a bare `wait` once waited for the script's own `tee`), report each
# part's exit, and write guard.json with the failure counted.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/lib/checks.sh
source "$repo/tests/lib/checks.sh"
command -v python3 > /dev/null || { echo "perf_guard: no python3, skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/repo
mkdir -p "$root/scripts" "$root/docs" "$root/.carry" "$tmp/pack/bin" "$tmp/pack/tests" "$tmp/path"
cp -r "$repo/scripts/device" "$root/scripts/"
cp "$repo/docs/perf-baseline.json" "$root/docs/"
printf '#!/bin/sh\necho "cuzk 0.0.0 (stand-in)"\n' > "$tmp/pack/bin/cuzk"
printf '#!/bin/sh\necho "[  PASSED  ] 3 tests."\n' > "$tmp/pack/tests/ntt_cuda_test"
printf '#!/bin/sh\necho "[  FAILED  ] Some.Test"\necho "x.cc:1: Failure"\nexit 1\n' > "$tmp/pack/tests/msm_cuda_test"
printf '#!/bin/sh\necho "[  PASSED  ] shard $GTEST_SHARD_INDEX of $GTEST_TOTAL_SHARDS"\n' \
  > "$tmp/pack/tests/groth16_cuda_test"
echo "0000000 stand-in" > "$tmp/pack/commit"
chmod +x "$tmp"/pack/bin/* "$tmp"/pack/tests/*
tar czf "$root/.carry/cuzk.tar.gz" -C "$tmp/pack" .
printf '#!/bin/sh\necho "Stand-in GPU, 0, 1 MiB"\n' > "$tmp/path/nvidia-smi"
chmod +x "$tmp/path/nvidia-smi"

out=$tmp/out
cd "$tmp"
run 0 "the tests step returns" env PATH="$tmp/path:$PATH" CUZK_PACKED_BIN="$tmp/bin" OUT="$out" \
  timeout 60 bash "$root/scripts/device/perf-guard.sh" tests
says "a passing part is reported" "test ntt_cuda_test: exit 0"
says "a failing part is reported with its exit" "test msm_cuda_test: exit 1"
says "a failing part's failure is shown" "Failure"
for i in 0 1 2; do says "shard $i of groth16_cuda_test ran" "test groth16_cuda_test.shard$i: exit 0.*shard $i of 3"; done
says "the failing part is named as failed" "^FAILED: test_msm_cuda_test_failed$"
says "the guard ends" "guard done in"
run 0 "guard.json counts the failure" python3 -c "import json,sys; g=json.load(open('$out/guard.json')); \
print(g['test_msm_cuda_test_failed'], g['test_ntt_cuda_test_failed'], g['test_groth16_cuda_test.shard2_failed'])"
says "the failing part counted, the others not" "^1 0 0$"
echo "perf_guard: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
