#!/usr/bin/env bash
# The performance guard, on a GPU machine: what users run, measured.
#   prove         cuzk bench prove --backend cuda --shape porep --lg 24 27 (key resident)
#   serve LIMIT N `cuzk serve` with its gRPC front on a unix socket, the config a
#                 user would write (bench circuit "bench27", lg 27, budget 110GiB,
#                 2 workers, pipeline.vram_limit = LIMIT or none for 0), driven over
#                 the socket: `cuzk preload`, one proof alone (latency), then
#                 `cuzk bench batch --partitions 10 --count N -j 2`, with
#                 nvidia-smi dmon beside it and /status read before and after
#   tests         the gpu test binaries packed with it (pack.sh TEST...)
#   budget B      memory.total_budget of the serve steps after it (default
#                 110GiB; "auto" is what a config without the key gets)
# e.g. scripts/device/perf-guard.sh tests prove serve 0 6 serve 16GiB 3 budget auto serve 24GiB 3
# The steady figure is (last − first completion)/(N − 1): with N = 4 it moves
# by ±1 s with where the first completion falls (docs/perf.md §5), so take N ≥ 6.
# Needs .carry/cuzk.tar.gz (scripts/device/pack.sh) carried with the tree.
# Writes $OUT/guard.json (one object, the figures perf-compare.py compares),
# logs beside it, and prints the comparison with docs/perf-baseline.json.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/cuzk-out}
mkdir -p "$OUT"
# Logs and raw figures, packed into $OUT/raw.tar.gz after every step (the
# folder itself stays out of $OUT: a call brings back only so many files).
RAW=$(mktemp -d)/raw
mkdir -p "$RAW"
exec > >(tee -a "$OUT/guard.log") 2>&1
# shellcheck source=scripts/device/packed-bin.sh
source scripts/device/packed-bin.sh
cuzk=$bin/bin/cuzk
echo "packed from: $(tr '\n' ' ' < $bin/commit)"
$cuzk version 2>&1 | head -5
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
results=$OUT/results.jsonl
: > "$results"
t0=$(date +%s)

run_prove() {
  echo "== bench prove --lg 24 27 --runs 3 (key resident)"
  timeout 420 $cuzk bench prove --backend cuda --shape porep --lg 24 27 --runs 3 --matvec device \
    --json "$RAW/prove.jsonl" 2> "$RAW/prove.err" | tail -4
  echo "exit $?"
  sed 's/^/{"step":"prove","line":/; s/$/}/' "$RAW/prove.jsonl" >> "$results"
}

status_snapshot() {  # $1: file
  python3 -c "import urllib.request,sys; sys.stdout.write(urllib.request.urlopen('http://127.0.0.1:9820/status', timeout=10).read().decode())" > "$1" 2>/dev/null
}

run_serve() {  # $1: vram limit (0: none), $2: proofs in the batch
  local limit=$1 count=$2 tag=serve-$1 dir=/tmp/cuzk-guard
  [[ $budget != 110GiB ]] && tag=$tag-budget-$budget
  rm -rf $dir && mkdir -m 700 $dir
  {
    echo '[server]'
    echo "listen = \"unix://$dir/cuzk.sock\""
    echo 'status_listen = "127.0.0.1:9820"'
    echo '[memory]'
    echo "total_budget = \"$budget\""
    if [[ $limit != 0 ]]; then echo '[pipeline]'; echo "vram_limit = \"$limit\""; fi
    echo '[demo]'
    echo 'enabled = false'
    echo '[[circuits]]'
    echo 'id = "bench27"'
    echo 'bench = "porep"'
    echo 'lg = 27'
  } > $dir/cuzk.toml
  echo "== $tag: cuzk serve (vram_limit $limit), then 1 proof alone and $count proofs -j 2"
  cat $dir/cuzk.toml
  local s=$(date +%s)
  $cuzk serve --config $dir/cuzk.toml > "$RAW/$tag.log" 2>&1 &
  local pid=$!
  local addr=unix://$dir/cuzk.sock
  for _ in $(seq 400); do [[ -S $dir/cuzk.sock ]] && break; kill -0 $pid 2>/dev/null || break; sleep 0.5; done
  echo "socket after $(( $(date +%s) - s )) s"
  timeout 300 $cuzk preload --addr $addr bench27 2>&1 | tail -2
  echo "preloaded after $(( $(date +%s) - s )) s"
  timeout 120 $cuzk bench batch --addr $addr --circuit bench27 --partitions 10 --count 1 -j 1 --json "$RAW/$tag-latency.json" 2> "$RAW/$tag-latency.err" | tail -3
  nvidia-smi dmon -s pucm -d 1 > "$RAW/$tag-dmon.txt" 2>&1 &
  local dmon=$!
  status_snapshot $RAW/$tag-status0.json
  timeout 300 $cuzk bench batch --addr $addr --circuit bench27 --partitions 10 --count "$count" -j 2 --json "$RAW/$tag-batch.json" 2> "$RAW/$tag-batch.err" | tail -4
  status_snapshot $RAW/$tag-status1.json
  kill $dmon 2>/dev/null
  local hwm=$(awk '/VmHWM/ {print $2 * 1024}' /proc/$pid/status)
  python3 -c "import urllib.request,sys; sys.stdout.write(urllib.request.urlopen('http://127.0.0.1:9820/metrics', timeout=10).read().decode())" > "$RAW/$tag-metrics.txt" 2>/dev/null
  kill -TERM $pid
  ( sleep 60; kill -KILL $pid 2>/dev/null ) &
  wait $pid
  local rc=$?
  echo "serve exit $rc after $(( $(date +%s) - s )) s"
  grep -E "WARN|ERROR|development setup|bench circuit" "$RAW/$tag.log" | head -12
  python3 scripts/device/guard_summary.py serve "$tag" "$limit" "$RAW" $RAW/$tag-status0.json $RAW/$tag-status1.json \
    "${hwm:-0}" "$rc" >> "$results"
}

run_tests() {
  # The test binaries at once, groth16_cuda_test (the longest, ≈ 190 s alone)
  # in three gtest shards: the step takes about as long as its longest part
  # instead of the sum (≈ 300 s). Every test sizes its budget far below the
  # card's memory, so the parts do not change one another's plans.
  # GUARD_TESTS_SERIAL=1: one part at a time, as when timing a test.
  local parts=()
  for t in $bin/tests/*; do
    [[ -x $t ]] || continue
    if [[ $(basename "$t") == groth16_cuda_test ]]; then
      parts+=("$t:0/3" "$t:1/3" "$t:2/3")
    else
      parts+=("$t")
    fi
  done
  run_part() {  # $1: binary[:shard/shards]; writes <tag>.log, .rc, .s
    local t=${1%%:*} tag shard=
    tag=$(basename "$t")
    [[ $1 == *:* ]] && shard=${1#*:} && tag="$tag.shard${shard%/*}"
    local s=$(date +%s)
    if [[ -n $shard ]]; then
      GTEST_SHARD_INDEX=${shard%/*} GTEST_TOTAL_SHARDS=${shard#*/} timeout 300 "$t" --gtest_brief=1 > "$RAW/$tag.log" 2>&1
    else
      timeout 300 "$t" --gtest_brief=1 > "$RAW/$tag.log" 2>&1
    fi
    echo $? > "$RAW/$tag.rc"
    echo $(( $(date +%s) - s )) > "$RAW/$tag.s"
  }
  # The parts' pids, waited on by name: a bare `wait` would also wait for
  # the `tee` of this script's own output (a process substitution), which
  # ends only when the script does.
  local p pids=()
  for p in "${parts[@]}"; do
    if [[ ${GUARD_TESTS_SERIAL:-0} == 1 ]]; then run_part "$p"; else run_part "$p" & pids+=($!); fi
  done
  (( ${#pids[@]} )) && wait "${pids[@]}"
  for p in "${parts[@]}"; do
    local t=${p%%:*} tag
    tag=$(basename "$t")
    [[ $p == *:* ]] && tag="$tag.shard$(cut -d/ -f1 <<< "${p#*:}")"
    local rc
    rc=$(cat "$RAW/$tag.rc" 2>/dev/null || echo 255)
    echo "test $tag: exit $rc, $(cat "$RAW/$tag.s" 2>/dev/null) s: $(grep -E '^\[  (PASSED|FAILED)' "$RAW/$tag.log" | tr '\n' ' ')"
    grep -E "^\[  FAILED|Failure" -A5 "$RAW/$tag.log" | head -30
    echo "{\"step\":\"test\",\"name\":\"$tag\",\"exit\":$rc}" >> "$results"
  done
}

# After every step: guard.json and raw.tar.gz as they stand, so that a call
# cut short by its time limit still brings back what finished (and few
# files: the raw logs travel packed).
checkpoint() {
  python3 scripts/device/guard_summary.py collect "$results" "$OUT/guard.json"
  tar czf "$OUT/raw.tar.gz.part" -C "$(dirname "$RAW")" raw && mv "$OUT/raw.tar.gz.part" "$OUT/raw.tar.gz"
}

budget=110GiB
args=("$@")
[[ ${#args[@]} -eq 0 ]] && args=(prove serve 0 6 serve 16GiB 3)
i=0
while (( i < ${#args[@]} )); do
  case ${args[i]} in
    prove) run_prove; i=$((i + 1)) ;;
    tests) run_tests; i=$((i + 1)) ;;
    serve) run_serve "${args[i+1]}" "${args[i+2]}"; i=$((i + 3)) ;;
    budget) budget=${args[i+1]}; i=$((i + 2)) ;;
    *) echo "unknown step ${args[i]}"; exit 2 ;;
  esac
  checkpoint
done
python3 scripts/device/perf-compare.py "$OUT/guard.json" docs/perf-baseline.json
rm -rf "$(dirname "$RAW")"
echo "guard done in $(( $(date +%s) - t0 )) s"
