#!/usr/bin/env bash
# The libFuzzer targets (fuzz/): builds them with Clang 16, ASan and UBSan in
# build-fuzz/, makes the seed corpora with cuzk's own writers, and runs every
# target. Corpora grow in build-fuzz/corpus/<target>/ (kept between runs);
# a crash, leak or sanitizer report lands in build-fuzz/findings/.
#   scripts/fuzz.sh ci                      every target for FUZZ_CI_SECONDS (default 6: about a minute in all)
#   scripts/fuzz.sh long SECONDS [TARGET...] every (or the named) target for SECONDS each
# Prints one line per target with its executions; exit 1 on any finding.
# Needs clang-16 and libclang-rt-16-dev (scripts/setup.sh --test installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-ci}
case $mode in
  ci) seconds=${FUZZ_CI_SECONDS:-6}; shift || true ;;
  long) seconds=${2:?seconds}; shift 2 ;;
  *) echo "usage: scripts/fuzz.sh ci | long SECONDS [TARGET...]"; exit 2 ;;
esac
targets=("$@")
clang=${CLANG:-clang++-16}
if ! command -v "$clang" >/dev/null || ! command -v "${clang/clang++/clang}" >/dev/null; then
  echo "fuzz: SKIPPED: $clang not found (scripts/setup.sh --test installs clang-16)"; exit 0
fi
build=build-fuzz
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}  # entries shared by clones wherever they live
fi
# Debug info names the clone's paths relative to it (-fdebug-prefix-map):
# with -g, ccache otherwise hashes the build directory, and a clone elsewhere
# (every fresh clone) rebuilt all of build-fuzz (about 8 minutes on 2 cores).
if [[ ! -f $build/build.ninja ]]; then
  mkdir -p "$build"
  cmake -S . -B "$build" -G Ninja -DCMAKE_C_COMPILER="${clang/clang++/clang}" -DCMAKE_CXX_COMPILER="$clang" \
    -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -g -fdebug-prefix-map=$PWD=." -DCUZK_FUZZ=ON -DCUZK_BUILD_TESTS=OFF -DCUZK_CUDA=OFF \
    -DCUZK_BUILD_SERVER=ON "${launcher[@]}" > "$build/configure.log" || { cat "$build/configure.log"; exit 1; }
fi
cmake --build "$build" --target fuzz -j "$(nproc)"
[[ ${#targets[@]} -gt 0 ]] || targets=(zkey_fuzz params_fuzz vk_fuzz proof_fuzz r1cs_fuzz wtns_fuzz snarkjs_json_fuzz
                                        precompiled_fuzz config_fuzz request_fuzz)
seeds=$build/seeds
if [[ ! -d $seeds/zkey_fuzz ]]; then
  rm -rf "$seeds"
  ASAN_OPTIONS=detect_leaks=0 "$build/fuzz/make_seeds" "$seeds" docs/config.example.toml
fi
mkdir -p "$build/findings"
failed=0
for t in "${targets[@]}"; do
  corpus=$build/corpus/$t
  mkdir -p "$corpus"
  log=$build/findings/$t.log
  rc=0
  "$build/fuzz/$t" "$corpus" "$seeds/$t" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$build/findings/$t-" > "$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  if [[ $rc -ne 0 ]]; then
    failed=1
    echo "fuzz: $t FINDING after ${execs:-?} executions (exit $rc); see $log"
    grep -E "ERROR|SUMMARY|runtime error" "$log" | head -5
  else
    echo "fuzz: $t ${execs:-?} executions in ${seconds}s, corpus $(ls "$corpus" | wc -l) inputs, no finding"
  fi
done
exit $failed
