#!/usr/bin/env bash
# README command 1: set up, build, start the proving daemon on a temporary
# socket, prove the demo circuit through the client, verify the proof, print
# the timings, and stop the daemon (always, via the trap).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z ${CUZK_DEMO_BIN:-} ]]; then
  scripts/setup.sh
  # The demo runs here and now: GPU code for this machine's GPUs only (the
  # release build compiles it for every supported GPU, about seven times
  # longer), or none when there is no GPU to run it.
  if [[ -z ${CUZK_CMAKE_ARGS:-} ]]; then
    caps=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | tr -d '. ' | sort -u | sed 's/$/-real/' | paste -sd';' || true)
    if [[ -n $caps ]]; then export CUZK_CMAKE_ARGS="-DCMAKE_CUDA_ARCHITECTURES=$caps"; else export CUZK_CMAKE_ARGS="-DCUZK_CUDA=OFF"; fi
  fi
  scripts/build.sh cuzk  # the binary alone; scripts/test.sh builds the tests
fi
cuzk=${CUZK_DEMO_BIN:-build/bin/cuzk}
$cuzk version
$cuzk selfcheck

work=$(mktemp -d)
daemon=""
stop_daemon() {
  if [[ -n $daemon ]] && kill -0 "$daemon" 2>/dev/null; then
    kill -TERM "$daemon"
    wait "$daemon" || true
  fi
  rm -rf "$work"
}
trap stop_daemon EXIT

sock="unix://$work/cuzk.sock"
echo "demo: starting the daemon on $sock"
$cuzk serve --listen "$sock" --status-listen 127.0.0.1:0 > "$work/serve.out" 2> "$work/serve.log" &
daemon=$!
# The first start generates the demo circuit's (insecure, testing-only) key.
for _ in $(seq 1200); do
  grep -q "serving on" "$work/serve.out" 2>/dev/null && break
  kill -0 "$daemon" 2>/dev/null || { cat "$work/serve.log"; exit 1; }
  sleep 0.1
done
cat "$work/serve.out"

$cuzk demo-witness --out "$work/demo.wtns" --vk "$work/verification_key.json"
echo "demo: proving the demo circuit through the daemon"
$cuzk prove --addr "$sock" --circuit demo --wtns "$work/demo.wtns" \
  --proof "$work/proof.json" --public "$work/public.json" --vk "$work/verification_key.json"
echo "demo: daemon status"
$cuzk status --addr "$sock"
