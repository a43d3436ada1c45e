#!/usr/bin/env bash
# Soak and load run of `cuzk serve` on loopback (tests/soak/soak.mjs): floods,
# cancels, hostile requests, idle HTTP connections, SIGTERM under load; every
# proof checked independently; RSS sampled every second.
#   scripts/soak.sh [DURATION_S (default 1800)] [OUT_DIR (default build/soak)] [-- extra soak.mjs args]
# Uses build/bin/cuzk unless CUZK is set. Needs the Node test packages
# (scripts/setup.sh --test).
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-1800}
out=${2:-build/soak}
shift $(( $# > 2 ? 2 : $# ))
[[ ${1:-} == "--" ]] && shift
cuzk=${CUZK:-build/bin/cuzk}
[[ -x $cuzk ]] || { echo "soak: $cuzk not found (build first, or set CUZK)"; exit 2; }
[[ -d tests/vectors/node_modules ]] || { echo "soak: run scripts/setup.sh --test first"; exit 2; }
exec node tests/soak/soak.mjs --cuzk "$cuzk" --duration "$duration" --out "$out" "$@"
