#!/usr/bin/env bash
# On the GPU machine: the packaging check of the GPU build
# (scripts/check-gpu-archs.sh: every architecture of the release list built
# into `cuzk`, listed with cuobjdump, build time and size), without the gRPC
# daemon (the machine has no gRPC); the carried .deb/ packages (fetch-debs.sh)
# give CLI11 and the JSON library. Results under $OUT/archs.txt.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/cuzk-out}
mkdir -p "$OUT"
# shellcheck source=scripts/device/debs-prefix.sh
source scripts/device/debs-prefix.sh
JOBS=${JOBS:-$(nproc)} scripts/check-gpu-archs.sh /tmp/build-archs -DCUZK_BUILD_SERVER=OFF 2>&1 | tee "$OUT/archs.txt"
rc=${PIPESTATUS[0]}
cp /tmp/build-archs.*.log "$OUT/" 2>/dev/null
exit "$rc"
