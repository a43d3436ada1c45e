B=/tmp/b; mkdir -p $B; tar xzf .carry/cuzk.tar.gz -C $B; export LD_LIBRARY_PATH=$B/lib
s=$(date +%s); timeout 150 .carry/msm_cuda_test --gtest_filter='*BatchAdd*' --gtest_brief=1 > $OUT/msm_cuda_test.log 2>&1; echo "msm_cuda_test exit $? $(( $(date +%s)-s )) s"; grep -E "PASSED|FAILED|Failure" -A3 $OUT/msm_cuda_test.log | head -20
for v in old new; do
  timeout 80 .carry/gpu-bench-$v ones --curve g1 --lg-min 25 --lg-max 27 --reps 5 --json $OUT/ones-g1-$v.json
  timeout 60 .carry/gpu-bench-$v ones --curve g2 --lg-min 24 --lg-max 25 --reps 5 --json $OUT/ones-g2-$v.json
done 2>&1 | tee $OUT/ones-ab.log | grep -E "^ones|rror|MISMATCH"
echo "ab done $(( $(date +%s)-s )) s"
OUT=$OUT bash scripts/device/perf-guard.sh tests serve 0 4 2>&1 | tail -40
