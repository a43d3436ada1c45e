#!/usr/bin/env bash
# The daemon's pipeline on a GPU machine, in one call: build (CUDA, sm_90), the
# gpu tests of the engine and the prover, `cuzk bench pipeline` (the engine
# in-process: multi-partition jobs of the PoRep-shaped bench circuit), and the
# Filecoin synthesis benchmark on all cores.
#   scripts/device/pipeline.sh [test] [bench LG PARTITIONS JOBS WORKERS LIMITS] [synth]
# e.g. pipeline.sh test bench 27 10 2 1,2 0,16GiB synth
# Needs .deb/ (scripts/device/fetch-debs.sh) carried with the tree.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/cuzk-out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/log.txt") 2>&1
prefix=/tmp/cuzk-prefix
mkdir -p $prefix
for f in .deb/*.deb; do dpkg -x "$f" $prefix; done
export CMAKE_PREFIX_PATH=$prefix/usr:$prefix/usr/lib/x86_64-linux-gnu/cmake
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
t0=$(date +%s)
if [[ ! -f build-dev/build.ninja ]]; then
  cmake -S . -B build-dev -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCUZK_BUILD_SERVER=OFF > /tmp/configure.log 2>&1 || { tail -30 /tmp/configure.log; exit 1; }
fi
targets=${TARGETS:-"groth16_cuda_test r1cs_cuda_test engine_gpu_test engine_pipeline_test engine_test cuzk"}
if ! cmake --build build-dev -j 16 --target $targets -- -k 0 > "$OUT/build.log" 2>&1; then
  echo "BUILD FAILED:"; grep -E "error|FAILED" "$OUT/build.log" | head -30
fi
echo "build done in $(( $(date +%s) - t0 )) s"
cuzk=build-dev/bin/cuzk
args=("$@")
i=0
while (( i < ${#args[@]} )); do
  case ${args[i]} in
    test)
      for t in ${TESTS:-engine_gpu_test engine_pipeline_test groth16_cuda_test}; do
        s=$(date +%s)
        timeout 400 build-dev/tests/$t > "$OUT/$t.log" 2>&1
        echo "test $t: exit $?, $(( $(date +%s) - s )) s: $(grep -E '^\[  (PASSED|FAILED)' "$OUT/$t.log" | tr '\n' ' ')"
        grep -E "^\[  FAILED|Failure" -A6 "$OUT/$t.log" | head -40
      done
      i=$((i + 1)) ;;
    bench)
      lg=${args[i+1]}; parts=${args[i+2]}; jobs=${args[i+3]}; workers=${args[i+4]}; limits=${args[i+5]}
      echo "== bench pipeline --lg $lg --partitions $parts --jobs $jobs --workers $workers --vram-limit $limits"
      s=$(date +%s)
      timeout ${BENCH_TIMEOUT:-560} $cuzk bench pipeline --lg "$lg" --partitions "$parts" --jobs "$jobs" \
        --workers "$workers" --vram-limit "$limits" ${BUDGET:+--budget $BUDGET} --matvec ${MATVEC:-device} \
        --json "$OUT/pipeline-$lg.json" \
        2> "$OUT/pipeline-$lg.err"
      echo "exit $?, $(( $(date +%s) - s )) s"
      grep -vE " info " "$OUT/pipeline-$lg.err" | tail -15
      i=$((i + 6)) ;;
    synth)
      echo "== filecoin bench-synth porep 32GiB (all cores, then 1 thread)"
      timeout 200 $cuzk filecoin bench-synth --kind porep --sector-size 32GiB 2>&1 | tail -6
      timeout 200 $cuzk filecoin bench-synth --kind porep --sector-size 32GiB --threads 1 2>&1 | tail -6
      i=$((i + 1)) ;;
    *) echo "unknown step ${args[i]}"; exit 2 ;;
  esac
done
echo "total $(( $(date +%s) - t0 )) s"
