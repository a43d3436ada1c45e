#!/usr/bin/env bash
# Interoperability of cuzk with circom and snarkjs (independent implementations):
#   - snarkjs key, cuzk proof      -> snarkjs groth16 verify accepts
#   - snarkjs key, snarkjs proof   -> cuzk verify accepts
#   - tampered proof / changed public input -> both reject
#   - cuzk setup zkey              -> snarkjs prove + verify, and cuzk
#   - bellperson-layout keys (cuzk setup --params) prove and verify
#   - an unsatisfied witness       -> cuzk prove fails naming the constraint, writes nothing
#   - a circuit whose unused private input circom dropped from the wires (unused.circom)
#   - 20 public signals, outputs ahead of inputs, values 0, 1 and r − 1 (manypub.circom);
#     snarkjs keys finalized with a beacon, as ceremonies end
# Inputs are drawn fresh each run. Usage: snarkjs_interop.sh CUZK NODE_MODULES WORKDIR
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/interop/node_env.sh
source "$HERE/node_env.sh"

passed=0
failed=0
step=0
last_log=""
check() {  # check "description" command...: the command must succeed
  local what=$1; shift
  step=$((step + 1)); last_log=log.$step
  if "$@" >"$last_log" 2>&1; then
    passed=$((passed + 1)); echo "  ok    $what"
  else
    failed=$((failed + 1)); echo "  FAIL  $what"; sed 's/^/        /' "$last_log" | tail -15 || true
  fi
}
check_fails() {  # the command must exit non-zero
  local what=$1; shift
  step=$((step + 1)); last_log=log.$step
  if "$@" >"$last_log" 2>&1; then
    failed=$((failed + 1)); echo "  FAIL  $what (unexpectedly succeeded)"
  else
    passed=$((passed + 1)); echo "  ok    $what"
  fi
}
rand() { od -An -N6 -tu8 /dev/urandom | tr -d ' '; }

compile() {  # compile NAME: circuits/NAME.circom -> NAME.r1cs, NAME_js/NAME.wasm
  # circom2 runs under WASI and sees the working directory only.
  [[ -d circomlib ]] || cp -r "$NODE_MODULES/circomlib" circomlib
  cp "$HERE/circuits/$1.circom" .
  circom2 "$1.circom" --r1cs --wasm --prime bls12381 -l . -o . >/dev/null
}
witness() {  # witness NAME INPUT_JSON OUT
  snarkjs wtns calculate "$1_js/$1.wasm" "$2" "$3" >/dev/null
}
# Changes the last witness value (an internal signal) by flipping its low bit.
corrupt_wtns() {
  node -e 'const fs=require("fs");const b=fs.readFileSync(process.argv[1]);b[b.length-32]^=1;fs.writeFileSync(process.argv[2],b)' "$1" "$2"
}
# Adds one to the first public input in a public.json.
bump_public() {
  node -e 'const fs=require("fs");const p=JSON.parse(fs.readFileSync(process.argv[1]));p[0]=(BigInt(p[0])+1n).toString();fs.writeFileSync(process.argv[2],JSON.stringify(p))' "$1" "$2"
}
# Replaces pi_a by pi_c in a proof.json (still valid points, wrong proof).
tamper_proof() {
  node -e 'const fs=require("fs");const p=JSON.parse(fs.readFileSync(process.argv[1]));p.pi_a=p.pi_c;fs.writeFileSync(process.argv[2],JSON.stringify(p))' "$1" "$2"
}
# Two JSON files hold the same value.
same_json() {
  node -e 'const fs=require("fs");const [a,b]=process.argv.slice(1).map(f=>JSON.stringify(JSON.parse(fs.readFileSync(f))));process.exit(a===b?0:1)' "$1" "$2"
}
# Output first, then grep: `snarkjs ... | grep -q` can stop reading before
# snarkjs is done writing, and pipefail then fails a good verification.
snarkjs_verify() { local out; out=$(snarkjs groth16 verify "$@") && grep -q "OK" <<< "$out"; }

echo "interop: powers of tau (bls12381, 2^8)"
snarkjs powersoftau new bls12381 8 p0.ptau >/dev/null
snarkjs powersoftau contribute p0.ptau p1.ptau --name=test -e="$(rand)" >/dev/null
snarkjs powersoftau prepare phase2 p1.ptau pot.ptau >/dev/null

for name in tiny nopub unused manypub; do
  echo "interop: $name (snarkjs key)"
  compile $name
  if [[ $name == tiny ]]; then echo "{\"a\": \"$(rand)\", \"b\": \"$(rand)\"}" > $name.in.json
  elif [[ $name == unused ]]; then
    echo "{\"a\": \"$(rand)\", \"b\": \"$(rand)\", \"u\": \"$(rand)\", \"v\": \"$(rand)\"}" > $name.in.json
  elif [[ $name == manypub ]]; then
    # 9 outputs and a sum ahead of 10 public inputs (a[9] and k): b mixes 0,
    # 1 and r − 1 with random values, k is r − 1.
    node -e 'const {randomBytes}=require("crypto");
      const r=0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;
      const rnd=()=>(BigInt("0x"+randomBytes(32).toString("hex"))%r).toString();
      const pick=()=>[()=>"0",()=>"1",()=>(r-1n).toString(),rnd][randomBytes(1)[0]%4]();
      console.log(JSON.stringify({a:Array.from({length:9},rnd),b:Array.from({length:9},pick),k:(r-1n).toString()}))' \
      > $name.in.json
  else echo "{\"x\": \"$(rand)\"}" > $name.in.json; fi
  witness $name $name.in.json $name.wtns
  snarkjs groth16 setup $name.r1cs pot.ptau $name.s0.zkey >/dev/null
  snarkjs zkey contribute $name.s0.zkey $name.s1.zkey --name=c -e="$(rand)" >/dev/null
  # Finalized as ceremonies end: a beacon contribution after the others.
  snarkjs zkey beacon $name.s1.zkey $name.s.zkey "$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')" 10 >/dev/null
  snarkjs zkey export verificationkey $name.s.zkey $name.s.vk.json >/dev/null

  check "$name: cuzk proves with the snarkjs key" \
    "$CUZK" prove --zkey $name.s.zkey --wtns $name.wtns --proof $name.c.proof.json --public $name.c.public.json
  check "$name: snarkjs verifies the cuzk proof" snarkjs_verify $name.s.vk.json $name.c.public.json $name.c.proof.json
  snarkjs groth16 prove $name.s.zkey $name.wtns $name.s.proof.json $name.s.public.json >/dev/null
  check "$name: the same public signals as snarkjs's, in its order" same_json $name.c.public.json $name.s.public.json
  check "$name: cuzk verifies the snarkjs proof" \
    "$CUZK" verify --vkey $name.s.vk.json --public $name.s.public.json --proof $name.s.proof.json
  tamper_proof $name.c.proof.json $name.bad.proof.json
  check_fails "$name: snarkjs rejects a tampered proof" snarkjs_verify $name.s.vk.json $name.c.public.json $name.bad.proof.json
  check_fails "$name: cuzk rejects a tampered proof" \
    "$CUZK" verify --vkey $name.s.vk.json --public $name.c.public.json --proof $name.bad.proof.json
  if [[ $name == tiny ]]; then
    bump_public $name.c.public.json $name.bad.public.json
    check_fails "$name: snarkjs rejects a changed public input" \
      snarkjs_verify $name.s.vk.json $name.bad.public.json $name.c.proof.json
    check_fails "$name: cuzk rejects a changed public input" \
      "$CUZK" verify --vkey $name.s.vk.json --public $name.bad.public.json --proof $name.c.proof.json
  fi

  echo "interop: $name (cuzk setup key)"
  "$CUZK" setup --r1cs $name.r1cs --zkey $name.k.zkey --vkey $name.k.vk.json --params $name.params --vk $name.vk \
    --dev-seed "$(rand)" 2>/dev/null
  check "$name: snarkjs proves with the cuzk zkey" \
    snarkjs groth16 prove $name.k.zkey $name.wtns $name.k.s.proof.json $name.k.s.public.json
  check "$name: snarkjs verifies it" snarkjs_verify $name.k.vk.json $name.k.s.public.json $name.k.s.proof.json
  check "$name: cuzk verifies it" \
    "$CUZK" verify --vkey $name.k.vk.json --public $name.k.s.public.json --proof $name.k.s.proof.json
  check "$name: cuzk proves with the cuzk zkey" \
    "$CUZK" prove --zkey $name.k.zkey --wtns $name.wtns --proof $name.k.c.proof.json --public $name.k.c.public.json
  check "$name: snarkjs verifies that" snarkjs_verify $name.k.vk.json $name.k.c.public.json $name.k.c.proof.json
  check "$name: bellperson layout proves" \
    "$CUZK" prove --params $name.params --r1cs $name.r1cs --wtns $name.wtns --proof $name.b.proof --public $name.b.public.json
  check "$name: bellperson layout verifies" \
    "$CUZK" verify --vk $name.vk --public $name.b.public.json --proof $name.b.proof

  corrupt_wtns $name.wtns $name.bad.wtns
  rm -f $name.bad.proof.out
  check_fails "$name: unsatisfied witness fails (zkey + r1cs)" \
    "$CUZK" prove --zkey $name.k.zkey --r1cs $name.r1cs --wtns $name.bad.wtns --proof $name.bad.proof.out
  check "$name: ... naming the constraint" grep -q "constraint [0-9]* is not satisfied" "$last_log"
  check_fails "$name: unsatisfied witness fails (zkey only, self-verification)" \
    "$CUZK" prove --zkey $name.k.zkey --wtns $name.bad.wtns --proof $name.bad.proof.out
  check_fails "$name: unsatisfied witness fails (bellperson layout)" \
    "$CUZK" prove --params $name.params --r1cs $name.r1cs --wtns $name.bad.wtns --proof $name.bad.proof.out
  check_fails "$name: ... and no proof file was written" test -e $name.bad.proof.out
done

echo "interop: snarkjs's command lines (cuzk groth16 prove|verify)"
check "cuzk groth16 prove, snarkjs's argument order" \
  "$CUZK" groth16 prove tiny.s.zkey tiny.wtns tiny.g.proof.json tiny.g.public.json
check "snarkjs verifies it" snarkjs_verify tiny.s.vk.json tiny.g.public.json tiny.g.proof.json
# Scripts pass names from mktemp: groth16 prove writes snarkjs's JSON whatever the names.
proof_tmp=$(mktemp -p . proof.XXXXXX) public_tmp=$(mktemp -p . public.XXXXXX)
check "cuzk groth16 prove, output names without .json" \
  "$CUZK" groth16 prove tiny.s.zkey tiny.wtns "$proof_tmp" "$public_tmp"
check "snarkjs verifies that proof" snarkjs_verify tiny.s.vk.json "$public_tmp" "$proof_tmp"
check "cuzk groth16 verify reads it back" "$CUZK" groth16 verify tiny.s.vk.json "$public_tmp" "$proof_tmp"
check "cuzk groth16 verify accepts snarkjs's proof" \
  "$CUZK" groth16 verify tiny.s.vk.json tiny.s.public.json tiny.s.proof.json
check_fails "cuzk groth16 verify rejects a tampered proof" \
  "$CUZK" groth16 verify tiny.s.vk.json tiny.c.public.json tiny.bad.proof.json

echo "interop: files for another curve, and .ptau files, named for what they are"
check "inspect: a bls12381 .ptau and its power" bash -c "'$CUZK' inspect pot.ptau > ptau.txt && grep -q '^curve: bls12381$' ptau.txt && grep -q '^power: 8 ' ptau.txt && grep -q 'phase 2 (Lagrange sections 12-15): yes' ptau.txt"
snarkjs powersoftau new bn128 5 bn0.ptau >/dev/null
snarkjs powersoftau contribute bn0.ptau bn1.ptau --name=test -e="$(rand)" >/dev/null
snarkjs powersoftau prepare phase2 bn1.ptau bn.ptau >/dev/null
check "inspect: a bn128 .ptau" bash -c "'$CUZK' inspect bn.ptau | grep -q '^curve: bn128 (BN254; not supported'"
mkdir -p bn && cp "$HERE/circuits/tiny.circom" bn/
(cd bn && circom2 tiny.circom --r1cs --wasm -o . >/dev/null)  # circom's default prime: BN254
snarkjs wtns calculate bn/tiny_js/tiny.wasm tiny.in.json tiny.bn.wtns >/dev/null
snarkjs groth16 setup bn/tiny.r1cs bn.ptau tiny.bn.zkey >/dev/null
check "inspect: a BN254 .zkey, said to be unsupported" \
  bash -c "'$CUZK' inspect tiny.bn.zkey > bnzkey.txt && grep -q '^curve: bn128' bnzkey.txt && grep -q '^supported by cuzk: no$' bnzkey.txt && grep -q '^public inputs (nPublic, ONE excluded): 2$' bnzkey.txt"
check "inspect: BN254 .r1cs and .wtns" bash -c "'$CUZK' inspect bn/tiny.r1cs | grep -q '^curve: bn128' && '$CUZK' inspect tiny.bn.wtns | grep -q '^curve: bn128'"
check_fails "cuzk prove refuses the BN254 key" "$CUZK" prove --zkey tiny.bn.zkey --wtns tiny.bn.wtns --proof bn.json
check "... naming the curve and the way out" grep -q "BN254 (bn128), not BLS12-381.*circom --prime bls12381" "$last_log"
check_fails "a BN254 witness with a BLS12-381 key is refused" "$CUZK" prove --zkey tiny.s.zkey --wtns tiny.bn.wtns
check "... with the --prime bls12381 hint" grep -q "circom --prime bls12381" "$last_log"

check_fails "a key of another circuit is refused (--r1cs given)" \
  "$CUZK" prove --zkey nopub.k.zkey --r1cs tiny.r1cs --wtns tiny.wtns --proof wrongkey.json
check "... naming the key and the circuit" grep -q "nopub.k.zkey is not a key of tiny.r1cs" "$last_log"
check_fails "... and no proof file was written" test -e wrongkey.json

for name in sha256 chain; do
  echo "interop: $name (cuzk setup key, larger)"
  compile $name
  if [[ $name == sha256 ]]; then
    node -e 'const b=[];for(let i=0;i<64;i++)b.push(String(Math.random()<0.5?0:1));console.log(JSON.stringify({in:b}))' > $name.in.json
  else echo "{\"x\": \"$(rand)\", \"y\": \"$(rand)\"}" > $name.in.json; fi
  witness $name $name.in.json $name.wtns
  "$CUZK" setup --r1cs $name.r1cs --zkey $name.k.zkey --vkey $name.k.vk.json --dev-seed "$(rand)" 2>/dev/null
  check "$name: cuzk proves with the cuzk zkey" \
    "$CUZK" prove --zkey $name.k.zkey --r1cs $name.r1cs --wtns $name.wtns --proof $name.proof.json --public $name.public.json
  check "$name: snarkjs verifies the cuzk proof" snarkjs_verify $name.k.vk.json $name.public.json $name.proof.json
  check "$name: cuzk verifies it" "$CUZK" verify --vkey $name.k.vk.json --public $name.public.json --proof $name.proof.json
done
"$CUZK" inspect chain.r1cs >inspect.out
head -12 inspect.out

echo "interop: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
