#!/usr/bin/env bash
# Device benchmarks of the CUDA backend (cuzk-gpu-bench), JSON under $2.
#   scripts/device/bench.sh BUILD_DIR OUT_DIR [quick|full]
# full: G1 MSM 2^20..2^27 resident and streamed, G2 MSM 2^20..2^24, NTT
# 2^20..2^27, PCIe copies. quick: the small end of each. core: the sizes the
# targets name (NTT 2^24..2^27, G1 2^24..2^27 resident, G2 2^22..2^24). Each figure is the
# median of 5 runs after a warm-up; each result is checked (bench prints ok).
set -uo pipefail
build=${1:-build-dev}
out=${2:-/tmp/cuzk-out}
level=${3:-full}
bench=$build/bin/cuzk-gpu-bench
[[ -x $bench ]] || { echo "no $bench"; exit 1; }
mkdir -p "$out"
run() {  # name, args...
  local name=$1; shift
  echo "== cuzk-gpu-bench $*" | tee -a "$out/bench.log"
  timeout 150 "$bench" "$@" --json "$out/$name.json" 2>&1 | tee -a "$out/bench.log"
}
if [[ $level == quick ]]; then
  run h2d h2d --reps 3
  run ntt ntt --lg-min 20 --lg-max 22
  run msm_g1 msm --curve g1 --lg-min 20 --lg-max 22 --streamed
  run msm_g2 msm --curve g2 --lg-min 20 --lg-max 20
elif [[ $level == core ]]; then
  run ntt ntt --lg-min 24 --lg-max 27
  run msm_g1 msm --curve g1 --lg-min 24 --lg-max 27
  run msm_g2 msm --curve g2 --lg-min 22 --lg-max 24
else
  run h2d h2d
  run ntt ntt --lg-min 20 --lg-max 27
  run msm_g1 msm --curve g1 --lg-min 20 --lg-max 27 --streamed --batch-lg 25
  run msm_g2 msm --curve g2 --lg-min 20 --lg-max 24
fi
echo "== summary (median ms)"
grep -hE "^(msm|ntt|h_step|h2d|d2h)" "$out/bench.log" | awk '{printf "%-28s %-5s %12s %s\n", $1, $2, $3, $5}'
