#!/usr/bin/env bash
# The GPU prover on a GPU machine, in one call: build (CUDA, sm_90), the gpu
# tests of the prover and its kernels, proofs of the interop circuits with
# --backend cuda (written under $OUT/proofs.tar, for snarkjs to verify on a
# machine with Node), and `cuzk bench prove --backend cuda --shape porep`.
#   scripts/device/prover.sh [test] [prove] [bench LG...] [limit LG...]
# Needs .deb/ (scripts/device/fetch-debs.sh) and .devdata/ (zkey, wtns, r1cs
# and params files of the interop circuits) carried with the tree.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/cuzk-out}
mkdir -p "$OUT/proofs"
log=$OUT/log.txt
exec > >(tee -a "$log") 2>&1
prefix=/tmp/cuzk-prefix
mkdir -p $prefix
for f in .deb/*.deb; do dpkg -x "$f" $prefix; done
export CMAKE_PREFIX_PATH=$prefix/usr:$prefix/usr/lib/x86_64-linux-gnu/cmake
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
t0=$(date +%s)
cmake -S . -B build-dev -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCUZK_BUILD_SERVER=OFF > /tmp/configure.log 2>&1 || { tail -30 /tmp/configure.log; exit 1; }
targets=${TARGETS:-"groth16_cuda_test r1cs_cuda_test msm_cuda_test ntt_cuda_test groth16_test r1cs_test engine_gpu_test engine_test cuzk"}
if ! cmake --build build-dev -j 16 --target $targets -- -k 0 > "$OUT/build.log" 2>&1; then
  echo "BUILD FAILED:"; grep -E "error|FAILED" "$OUT/build.log" | head -30
fi
echo "build done in $(( $(date +%s) - t0 )) s"
cuzk=build-dev/bin/cuzk
mode=""
for arg in "$@"; do
  case $arg in
    test|prove|bench|limit) mode=$arg; [[ $mode == test || $mode == prove ]] && declare "run_$mode=1" ;;
    *) [[ $mode == bench ]] && bench_lgs+=("$arg"); [[ $mode == limit ]] && limit_lgs+=("$arg") ;;
  esac
done
if [[ -n ${run_test:-} ]]; then
  for t in ${TESTS:-groth16_cuda_test r1cs_cuda_test msm_cuda_test ntt_cuda_test r1cs_test engine_gpu_test engine_test}; do
    s=$(date +%s)
    timeout 300 build-dev/tests/$t > "$OUT/$t.log" 2>&1
    echo "test $t: exit $?, $(( $(date +%s) - s )) s: $(grep -E '^\[  (PASSED|FAILED)' "$OUT/$t.log" | tr '\n' ' ')"
    grep -E "^\[  FAILED|Failure" -A4 "$OUT/$t.log" | head -40
  done
fi
if [[ -n ${run_prove:-} ]]; then
  d=.devdata
  for k in tiny.s sha256.k; do
    name=${k%%.*}
    echo "== prove $k.zkey --backend cuda"
    $cuzk prove --backend cuda --zkey $d/$k.zkey --r1cs $d/$name.r1cs --wtns $d/$name.wtns \
      --proof $OUT/proofs/$k.cuda.proof.json --public $OUT/proofs/$k.cuda.public.json; echo "exit $?"
    $cuzk prove --backend cuda --placement streamed --zkey $d/$k.zkey --wtns $d/$name.wtns \
      --proof $OUT/proofs/$k.streamed.proof.json --public $OUT/proofs/$k.streamed.public.json; echo "exit $?"
  done
  echo "== prove tiny.params --backend cuda"
  $cuzk prove --backend cuda --params $d/tiny.params --r1cs $d/tiny.r1cs --wtns $d/tiny.wtns \
    --proof $OUT/proofs/tiny.b.cuda.proof --public $OUT/proofs/tiny.b.cuda.public.json; echo "exit $?"
  $cuzk verify --vk $d/tiny.vk --public $OUT/proofs/tiny.b.cuda.public.json --proof $OUT/proofs/tiny.b.cuda.proof; echo "verify exit $?"
  (cd "$OUT" && tar cf proofs.tar proofs && rm -rf proofs)
fi
if [[ -n ${bench_lgs:-} ]]; then
  echo "== bench prove --backend cuda --shape porep --lg ${bench_lgs[*]}"
  timeout 900 $cuzk bench prove --backend cuda --shape porep --lg "${bench_lgs[@]}" --runs ${RUNS:-5} \
    --matvec ${MATVEC:-device} --json "$OUT/bench.json"
  echo "exit $?"
fi
if [[ -n ${limit_lgs:-} ]]; then
  echo "== bench prove --backend cuda --shape porep --vram-limit 16GiB --lg ${limit_lgs[*]}"
  timeout 900 $cuzk bench prove --backend cuda --shape porep --vram-limit 16GiB --lg "${limit_lgs[@]}" --runs 5 \
    --json "$OUT/bench-16g.json"
  echo "exit $?"
fi
echo "total $(( $(date +%s) - t0 )) s"
