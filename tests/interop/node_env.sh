# The start of the snarkjs/circom test scripts (sourced with the script's
# arguments CUZK NODE_MODULES WORKDIR): skips (exit 77) without the Node test
# packages, sets CUZK, NODE_MODULES and WORK, puts snarkjs and circom2 on the
# PATH, and enters a fresh WORK.
if [[ ! -x $2/.bin/snarkjs || ! -x $2/.bin/circom2 ]]; then
  echo "SKIP: the Node test packages (snarkjs, circom2) are not installed in $2; scripts/setup.sh --test installs them"
  exit 77
fi
CUZK=$(realpath "$1")
NODE_MODULES=$(realpath "$2")
WORK=$3
export PATH="$NODE_MODULES/.bin:$PATH"
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK"
