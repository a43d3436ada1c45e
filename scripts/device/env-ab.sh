#!/usr/bin/env bash
# A/B of a setting made through the environment (an experimental kernel
# switch the code under test reads), on the GPU machine, with one packed
# build (scripts/device/pack.sh, carried in .carry/): each command runs
# ROUNDS times, alternately without the setting (A) and with it (B), so that
# both see the same chip minutes apart.
#   scripts/device/env-ab.sh NAME=VALUE [--rounds N] "COMMAND" ...
# COMMAND: "cuzk ARGS" or "gpu-bench ARGS" (cuzk-gpu-bench, packed by pack.sh).
# e.g. scripts/device/env-ab.sh CUZK_EXPERIMENT=1 --rounds 2 \
#        "gpu-bench ntt --lg-min 24 --lg-max 27" \
#        "cuzk bench prove --backend cuda --shape porep --lg 27 --runs 3 --matvec device"
# Logs under $OUT/ab-<i>-<A|B>-<round>.log; the lines a bench prints as its
# figures (cuzk bench: its table; gpu-bench: its records) are echoed.
set -uo pipefail
cd "$(dirname "$0")/../.."
setting=${1:?usage: scripts/device/env-ab.sh NAME=VALUE [--rounds N] \"COMMAND\" ...}
shift
[[ $setting == *=* ]] || { echo "env-ab: $setting is not NAME=VALUE"; exit 2; }
rounds=2
if [[ ${1:-} == --rounds ]]; then rounds=$2; shift 2; fi
OUT=${OUT:-/tmp/cuzk-out}
mkdir -p "$OUT"
# shellcheck source=scripts/device/packed-bin.sh
source scripts/device/packed-bin.sh
echo "packed from: $(tr '\n' ' ' < $bin/commit); B = $setting"
i=0
for cmd in "$@"; do
  i=$((i + 1))
  read -r tool args <<< "$cmd"
  case $tool in
    cuzk) exe=$bin/bin/cuzk ;;
    gpu-bench) exe=$bin/bin/cuzk-gpu-bench ;;
    *) echo "env-ab: unknown command $tool"; exit 2 ;;
  esac
  for r in $(seq "$rounds"); do
    for side in A B; do
      log=$OUT/ab-$i-$side-$r.log
      s=$(date +%s)
      if [[ $side == B ]]; then
        # shellcheck disable=SC2086
        env "$setting" timeout 400 "$exe" $args > "$log" 2>&1
      else
        # shellcheck disable=SC2086
        timeout 400 "$exe" $args > "$log" 2>&1
      fi
      echo "== [$i] $side round $r: exit $?, $(( $(date +%s) - s )) s: $cmd"
      grep -vE "^\s*$" "$log" | tail -12
    done
  done
done
