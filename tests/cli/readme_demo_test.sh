#!/usr/bin/env bash
# README command 1 past its setup and build: scripts/demo.sh with this build's
# binary. It must exit 0 and say that the client verified the daemon's proof.
#   readme_demo_test.sh CUZK_BINARY
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=$(CUZK_DEMO_BIN=$1 bash "$here/scripts/demo.sh" 2>&1)
rc=$?
echo "$out"
grep -q '^verified 1 proof(s) against .*: OK$' <<< "$out" || { echo "readme-demo: no verified proof"; exit 1; }
[[ $rc -eq 0 ]] || { echo "readme-demo: demo.sh exited $rc"; exit 1; }
echo "readme-demo: OK"
