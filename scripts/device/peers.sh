#!/usr/bin/env bash
# On the GPU machine: cuzk beside sppark and ICICLE in one run
# (cuzk-peer-bench: G1 MSM 2^24/2^26/2^27, G2 MSM 2^24, NTT 2^27 plain and
# coset, every result checked). Needs the peers' sources carried in
# .carry/peers (scripts/fetch-peers.sh) and the .deb/ packages
# (fetch-debs.sh). Builds ICICLE (bls12_381, CUDA backend, sm_90) unless
# .carry/peers/icicle-install holds it already, then the bench, runs it, and
# leaves peers.txt and peers.json under $OUT.
#   scripts/device/peers.sh [extra cuzk-peer-bench options]
#   scripts/device/peers.sh --icicle-only   (no GPU needed: builds ICICLE into
#       .carry/peers/icicle-install and stops; run it on the development
#       machine before the call, since on a bare GPU machine ICICLE's build
#       takes more than 400 s of the call's 600)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/cuzk-out}
mkdir -p "$OUT"
peers=$PWD/.carry/peers
[[ -d $peers/sppark && -d $peers/icicle ]] || { echo "peers.sh: no .carry/peers (scripts/fetch-peers.sh)"; exit 2; }
icicle_only=0
[[ ${1:-} == --icicle-only ]] && icicle_only=1 && shift
# shellcheck source=scripts/device/debs-prefix.sh
[[ $icicle_only == 1 ]] || source scripts/device/debs-prefix.sh
t0=$(date +%s)
if [[ ! -f $peers/icicle-install/lib/libicicle_curve_bls12_381.so ]]; then
  icicle_build=${ICICLE_BUILD_DIR:-/tmp/icicle-build}
  cmake -S "$peers/icicle/icicle" -B "$icicle_build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCURVE=bls12_381 \
    -DCUDA_BACKEND=local -DCPU_BACKEND=OFF -DCUDA_ARCH=90 -DECNTT=OFF -DEXT_FIELD=OFF -DHASH=OFF -DPOSEIDON=OFF \
    -DPOSEIDON2=OFF -DSUMCHECK=OFF -DFRI=OFF -DBUILD_TESTS=OFF -DCMAKE_INSTALL_PREFIX="$peers/icicle-install" \
    >"$OUT/icicle-configure.log" 2>&1 && cmake --build "$icicle_build" -j "$(nproc)" >"$OUT/icicle-build.log" 2>&1 &&
    cmake --install "$icicle_build" >>"$OUT/icicle-build.log" 2>&1 || { echo "ICICLE build failed:"; tail -20 "$OUT/icicle-build.log"; }
fi
echo "ICICLE built in $(( $(date +%s) - t0 )) s"
if [[ $icicle_only == 1 ]]; then
  [[ -f $peers/icicle-install/lib/libicicle_curve_bls12_381.so ]] || exit 1
  du -sh "$peers/icicle-install"
  exit 0
fi
cmake -S . -B /tmp/build-peers -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCUZK_BUILD_SERVER=OFF -DCUZK_BUILD_TESTS=OFF -DCUZK_PEERS_DIR="$peers" >"$OUT/peers-configure.log" 2>&1 ||
  { tail -20 "$OUT/peers-configure.log"; exit 1; }
cmake --build /tmp/build-peers -j "$(nproc)" --target cuzk-peer-bench >"$OUT/peers-build.log" 2>&1 ||
  { grep -E "error|FAILED" "$OUT/peers-build.log" | head -20; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
# ICICLE may have been built elsewhere (its install carried prebuilt: building
# it here takes more than 400 s of the call), so its libraries are found by
# path, not by the build's run paths.
export LD_LIBRARY_PATH="$peers/icicle-install/lib:$peers/icicle-install/lib/backend${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
/tmp/build-peers/bin/cuzk-peer-bench --icicle-backend "$peers/icicle-install/lib/backend" \
  --json "$OUT/peers.json" "$@" 2>&1 | tee "$OUT/peers.txt"
