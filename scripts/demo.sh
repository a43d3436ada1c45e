#!/usr/bin/env bash
# Sets up, builds and runs the main job (README command 1).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
build/bin/cuzk version
build/bin/cuzk selfcheck
