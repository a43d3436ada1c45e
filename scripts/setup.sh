#!/usr/bin/env bash
# Installs what cuzk needs to build, run and test on Debian 12, skipping what
# is already present. Idempotent; safe to run repeatedly.
#   scripts/setup.sh           build and run dependencies
#   scripts/setup.sh --test    also the Node packages the tests compare against, and
#                              Chromium for the status page test
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=0
[[ "${1:-}" == "--test" ]] && want_test=1

SUDO=""
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null; then SUDO="sudo"; else
    echo "setup: not root and no sudo; install packages manually" >&2
  fi
fi

# file: cpack's .deb generator reads the binary's dependencies with it
# (CPACK_DEBIAN_PACKAGE_SHLIBDEPS); a minimal Debian 12 lacks it.
packages=(build-essential cmake ninja-build git pkg-config file
          libgtest-dev libgmock-dev libbenchmark-dev
          libcli11-dev libfmt-dev libspdlog-dev nlohmann-json3-dev libtomlplusplus-dev libcpp-httplib-dev
          libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc)
if [[ $want_test -eq 1 ]] && ! command -v node >/dev/null; then
  packages+=(nodejs npm)
fi
# The TLS tests make their certificates with the openssl tool; the
# thread-safety check and the fuzz targets need Clang and its runtimes; the
# device scripts' parsers are tested with Python.
[[ $want_test -eq 1 ]] && packages+=(openssl clang-16 libclang-rt-16-dev python3)
# Headless Chromium for the status page test.
if [[ $want_test -eq 1 ]]; then
  packages+=(chromium)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "setup: Debian packages present"
fi

if [[ $want_test -eq 1 ]]; then
  # Debian 12's Node 18.19 with its npm 9.2 runs every Node part of the tests
  # (the @noble/curves vector generators, circom2, snarkjs, the gRPC wire and
  # soak clients), although @noble/curves declares Node >= 20.19 (npm ci
  # only warns about that); older Node is not tried.
  node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
  if [[ $node_major -lt 18 ]]; then
    echo "setup: WARNING: Node $(node --version 2>/dev/null) found; the tests are run with Node 18.19 (Debian 12) and 20" >&2
  fi
  # Node packages for the differential and interoperability tests.
  stamp=tests/vectors/node_modules/.cuzk-installed
  if [[ ! -f $stamp || tests/vectors/package-lock.json -nt $stamp ]]; then
    echo "setup: installing Node test packages (tests/vectors)"
    (cd tests/vectors && npm ci --no-audit --no-fund --loglevel=error)
    touch "$stamp"
  else
    echo "setup: Node test packages present"
  fi
fi
