#!/usr/bin/env bash
# Downloads the Debian packages a GPU machine without a package registry needs
# to build cuzk's tests and CLI (header-only or static libraries), into .deb/
# (ignored by git). scripts/device/run.sh unpacks them into a private prefix.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .deb
cd .deb
for p in libgtest-dev libgmock-dev googletest libcli11-dev nlohmann-json3-dev; do
  ls ${p}_*.deb >/dev/null 2>&1 || apt-get download "$p"
done
ls -la
