#!/usr/bin/env bash
# The packaging check of the GPU build: builds `cuzk` as the release preset
# does (device code for every architecture in CUZK_CUDA_RELEASE_ARCHITECTURES,
# cmake/CuzkCuda.cmake), then lists the machine code and PTX the binary
# carries (cuobjdump) and fails unless every architecture asked for is there.
# Prints the build time and the binary's size. Run it before a release; the
# device scripts run it on the GPU machine (16 cores). CI builds sm_90 only.
#   scripts/check-gpu-archs.sh [BUILD_DIR] [extra cmake -D...]
# BUILD_DIR defaults to build-archs; JOBS defaults to nproc.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-archs}
shift || true
command -v nvcc >/dev/null || [[ -x /usr/local/cuda/bin/nvcc ]] || { echo "check-gpu-archs: no nvcc"; exit 77; }
export PATH=$PATH:/usr/local/cuda/bin
command -v cuobjdump >/dev/null || { echo "check-gpu-archs: no cuobjdump (the CUDA toolkit's cuda-cuobjdump) to list the binary with"; exit 77; }
t0=$(date +%s)
cmake --preset release -B "$dir" -DCUZK_CUDA=ON -DCUZK_BUILD_TESTS=OFF "$@" >"$dir.configure.log" 2>&1 ||
  { tail -20 "$dir.configure.log"; exit 1; }
cmake --build "$dir" -j "${JOBS:-$(nproc)}" --target cuzk >"$dir.build.log" 2>&1 || { grep -E "error|FAILED" "$dir.build.log" | head -20; exit 1; }
t1=$(date +%s)
bin=$dir/bin/cuzk
want=$(sed -n 's/^CMAKE_CUDA_ARCHITECTURES:[A-Z]*=//p' "$dir/CMakeCache.txt")
[[ $want == release || -z $want ]] && want=$(sed -n 's/^set(CUZK_CUDA_RELEASE_ARCHITECTURES "\(.*\)")$/\1/p' cmake/CuzkCuda.cmake)
elf=$(cuobjdump --list-elf "$bin" | grep -oE 'sm_[0-9]+[a-z]?' | sort -u -V | paste -sd' ')
ptx=$(cuobjdump --list-ptx "$bin" | grep -oE 'sm_[0-9]+[a-z]?' | sed 's/sm_/compute_/' | sort -u -V | paste -sd' ')
echo "asked for:        $want"
echo "machine code:     ${elf:-none}"
echo "PTX:              ${ptx:-none}"
missing=()
IFS=';' read -ra entries <<<"$want"
for e in "${entries[@]}"; do
  n=${e%%-*}
  case $e in
    *-virtual) [[ " $ptx " == *" compute_$n "* ]] || missing+=("compute_$n (PTX)") ;;
    *-real) [[ " $elf " == *" sm_$n "* ]] || missing+=("sm_$n") ;;
    *) [[ " $elf " == *" sm_$n "* ]] || missing+=("sm_$n")
       [[ " $ptx " == *" compute_$n "* ]] || missing+=("compute_$n (PTX)") ;;
  esac
done
echo "build time:       $((t1 - t0)) s with ${JOBS:-$(nproc)} jobs"
echo "binary size:      $(du -m "$bin" | cut -f1) MiB ($bin)"
"$bin" version | sed -n 's/^cuda: *//p; s/^device: *//p' | sed 's/^/cuzk version:     /'
if (( ${#missing[@]} )); then
  echo "MISSING: ${missing[*]}"
  exit 1
fi
echo "check-gpu-archs: every architecture asked for is in the binary"
