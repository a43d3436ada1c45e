#!/usr/bin/env bash
# One-shot proving as a user runs it: the whole `cuzk prove --zkey` command
# against the whole `snarkjs groth16 prove` command on the same files, a
# SHA-256 of 512 bits (circomlib, ~62,500 constraints, domain 2^16).
#   scripts/bench-oneshot.sh [ROUNDS] [WORKDIR]       (default 5 rounds, build/oneshot)
# Needs a release build in build/ and the Node test packages (scripts/setup.sh --test).
# The key is cuzk's INSECURE development key (snarkjs proves with it as with its own).
# Rounds alternate the two tools; the first round of each is reported on its own,
# then medians over all rounds. Also: the load share of cuzk's time, and
# `--full-check` on its first run and once it is remembered.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
rounds=${1:-5}
work=${2:-build/oneshot}
cuzk=$root/build/bin/cuzk
nm=$root/tests/vectors/node_modules
export PATH="$nm/.bin:$PATH"
mkdir -p "$work" && cd "$work"
if [[ ! -f k.zkey ]]; then
  [[ -d circomlib ]] || cp -r "$nm/circomlib" circomlib
  cp "$root/tests/interop/circuits/sha256_512.circom" .
  circom2 sha256_512.circom --r1cs --wasm --prime bls12381 -l . -o . > circom.log
  node -e 'const b=[];for(let i=0;i<512;i++)b.push(String(Math.random()<0.5?0:1));console.log(JSON.stringify({in:b}))' > in.json
  snarkjs wtns calculate sha256_512_js/sha256_512.wasm in.json w.wtns
  "$cuzk" setup --r1cs sha256_512.r1cs --zkey k.zkey --vkey vk.json --dev-seed 1 --force 2> /dev/null
fi
grep -E "constraints|wires" circom.log | tr '\n' ' '; echo
# Wall seconds of a command, and its CPU seconds (user + system, all threads) in cpu.last.
seconds() {
  /usr/bin/time -f "%e %U %S" -o time.last "$@" > /dev/null 2> last.err
  awk '{print $2 + $3}' time.last > cpu.last
  awk '{print $1}' time.last
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1f", a / b}'; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
: > cuzk.times; : > snarkjs.times; : > load.times; : > cuzk.cpu; : > snarkjs.cpu
for r in $(seq "$rounds"); do
  seconds "$cuzk" prove --zkey k.zkey --wtns w.wtns --proof c.proof.json --public c.public.json >> cuzk.times
  cat cpu.last >> cuzk.cpu
  sed -n 's/.*load \([0-9.]*\) s.*/\1/p' last.err >> load.times
  seconds snarkjs groth16 prove k.zkey w.wtns s.proof.json s.public.json >> snarkjs.times
  cat cpu.last >> snarkjs.cpu
done
snarkjs groth16 verify vk.json c.public.json c.proof.json | grep -q OK || { echo "snarkjs rejects cuzk's proof"; exit 1; }
c1=$(head -1 cuzk.times); s1=$(head -1 snarkjs.times)
cm=$(median < cuzk.times); sm=$(median < snarkjs.times); lm=$(median < load.times)
printf 'first run:  cuzk %.3f s, snarkjs %.3f s: %sx\n' "$c1" "$s1" "$(ratio "$s1" "$c1")"
printf 'median of %d: cuzk %.3f s (load %.3f s, %s%%), snarkjs %.3f s: %sx\n' "$rounds" "$cm" "$lm" \
  "$(awk -v a="$lm" -v b="$cm" 'BEGIN {printf "%.0f", 100 * a / b}')" "$sm" "$(ratio "$sm" "$cm")"
ccm=$(median < cuzk.cpu); scm=$(median < snarkjs.cpu)
printf 'CPU seconds (user + system), median: cuzk %.3f, snarkjs %.3f: %sx\n' "$ccm" "$scm" "$(ratio "$scm" "$ccm")"
printf 'load average: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf fullcheck-cache
f1=$(seconds "$cuzk" prove --zkey k.zkey --wtns w.wtns --full-check --cache-dir fullcheck-cache)
f2=$(seconds "$cuzk" prove --zkey k.zkey --wtns w.wtns --full-check --cache-dir fullcheck-cache)
printf -- '--full-check: first run %.3f s, remembered %.3f s\n' "$f1" "$f2"
