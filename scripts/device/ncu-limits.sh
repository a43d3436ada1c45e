#!/usr/bin/env bash
# What limits each kernel of a partition's stages (issue rate, a pipe, memory,
# latency), measured with Nsight Compute on the GPU machine, with one packed
# build (scripts/device/pack.sh, carried in .carry/):
#   scripts/device/ncu-limits.sh [TARGET ...]
# TARGET (default: msm27 ntt27 msm22 g2-22 ones24):
#   msm27      G1 MSM 2^27 (the H MSM): window 0's pair rounds and first levels
#   msm22      G1 MSM 2^22 (the size of L's and A's tails)
#   g2-22      G2 MSM 2^22 (B2's tail)
#   ntt27      the three passes of a 2^27 transform
#   ones24     the batch additions of the ones (bitmap_sum_kernel) in a 2^24
#              PoRep-shaped proof
#   NAME=VALUE:TARGET   the same with an environment switch, e.g.
#              CUZK_EXPERIMENT=1:ntt27
# Each target runs under `ncu --clock-control none` (the boost clock the
# benches see) with the metrics ncu_limits.py asks for, filtered by the
# kernels' names and the first launches; CSVs go into $OUT/ncu-raw.tar.gz,
# the table (one row per kernel and instantiation) into $OUT/ncu-limits.md
# and $OUT/ncu-limits.json.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/cuzk-out}
mkdir -p "$OUT"
here=$PWD/scripts/device
# shellcheck source=scripts/device/packed-bin.sh
source scripts/device/packed-bin.sh
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[[ -n $ncu && -x $ncu ]] || { echo "ncu-limits: no ncu on this machine"; exit 2; }
RAW=$(mktemp -d)/ncu
mkdir -p "$RAW"
echo "packed from: $(tr '\n' ' ' < $bin/commit); $("$ncu" --version | tail -1)"
"$ncu" --query-metrics --devices 0 > "$RAW/query.txt" 2>&1 ||
  "$ncu" --query-metrics --chip gh100 > "$RAW/query.txt" 2>&1
metrics=$(python3 "$here/ncu_limits.py" metrics "$RAW/query.txt")
echo "metrics asked: $(tr ',' '\n' <<< "$metrics" | wc -l)"

targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(msm27 ntt27 msm22 g2-22 ones24)
t0=$(date +%s)
for target in "${targets[@]}"; do
  env_set=()
  name=$target
  if [[ $target == *=*:* ]]; then
    env_set=("${target%%:*}")
    name=${target#*:}
  fi
  pairs='regex:pair_forward_kernel|pair_backward_kernel|accumulate_kernel'
  case $name in
    msm27) kernels=$pairs; count=14; cmd=("$bin/bin/cuzk-gpu-bench" msm --curve g1 --lg 27 --reps 1) ;;
    msm22) kernels=$pairs; count=14; cmd=("$bin/bin/cuzk-gpu-bench" msm --curve g1 --lg 22 --reps 1) ;;
    g2-22) kernels=$pairs; count=14; cmd=("$bin/bin/cuzk-gpu-bench" msm --curve g2 --lg 22 --reps 1) ;;
    ntt27) kernels='regex:ntt_pass_kernel'; count=3; cmd=("$bin/bin/cuzk-gpu-bench" ntt --lg 27 --reps 1) ;;
    ones24) kernels='regex:bitmap_sum_kernel'; count=4
      cmd=("$bin/bin/cuzk" bench prove --backend cuda --shape porep --lg 24 --runs 1 --matvec device) ;;
    *) echo "ncu-limits: unknown target $name"; continue ;;
  esac
  tag=${target//[^A-Za-z0-9_-]/_}
  echo "== $target: ${cmd[*]##*/}"
  s=$(date +%s)
  profile() {  # $1: the metrics to ask for
    timeout 300 env "${env_set[@]}" "$ncu" --clock-control none --kernel-name "$kernels" --launch-count "$count" \
      --metrics "$1" --csv --log-file "$RAW/$tag.csv" "${cmd[@]}" > "$RAW/$tag.log" 2>&1
  }
  profile "$metrics"
  rc=$?
  if [[ $rc -ne 0 ]] && grep -qi "metric" "$RAW/$tag.log"; then
    # A metric this ncu does not know (its --query-metrics listed none): the
    # few every ncu has, once more.
    echo "   exit $rc (metrics refused: $(grep -i -m1 metric "$RAW/$tag.log")); again with the basic ones"
    profile "$(python3 "$here/ncu_limits.py" basic)"
    rc=$?
  fi
  echo "   exit $rc in $(( $(date +%s) - s )) s"
  [[ $rc -eq 0 ]] || tail -5 "$RAW/$tag.log"
  if [[ -s $RAW/$tag.csv ]]; then
    { echo "### $target"; echo; python3 "$here/ncu_limits.py" table "$RAW/$tag.csv" --json "$RAW/$tag.json"; echo; } \
      >> "$OUT/ncu-limits.md"
  fi
done
echo "ncu-limits: $(( $(date +%s) - t0 )) s"
[[ -f $OUT/ncu-limits.md ]] && cat "$OUT/ncu-limits.md"
python3 - "$RAW" "$OUT/ncu-limits.json" <<'EOF'
import glob, json, os, sys
rows = {}
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    rows[os.path.basename(f)[:-5]] = json.load(open(f))
json.dump(rows, open(sys.argv[2], "w"), indent=1)
EOF
tar czf "$OUT/ncu-raw.tar.gz" -C "$(dirname "$RAW")" ncu
