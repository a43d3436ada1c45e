#!/usr/bin/env bash
# What a snarkjs user meets at the edges, each case checked against snarkjs
# itself (snarkjs_interop.sh covers the common path):
#   - circuit shapes: one constraint with only outputs public, only linear
#     constraints, constraints + public inputs filling the domain exactly
#     and one past it; keys straight from `snarkjs zkey new` (no
#     contribution); witnesses from circom's generate_witness.js and from
#     `snarkjs wtns calculate`
#   - JSON that snarkjs's reader takes: "0x" hex values, JSON numbers,
#     points as [x, y], other key order and spacing -> both accept
#   - proofs and public inputs snarkjs refuses (off the curve, public value
#     >= r or negative, a list of the wrong length) -> cuzk refuses too,
#     exit non-zero, and says why
#   - a BN254 (snarkjs's default curve) verification key and proof -> named
#   - snarkjs's short forms (g16p, g16v) and `groth16 verify -v`
# Inputs and circuit sizes are drawn fresh each run.
# Usage: snarkjs_edges.sh CUZK NODE_MODULES WORKDIR
set -euo pipefail
# shellcheck source=tests/lib/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/checks.sh"
# shellcheck source=tests/interop/node_env.sh
source "$(dirname "${BASH_SOURCE[0]}")/node_env.sh"

rand() { od -An -N6 -tu8 /dev/urandom | tr -d ' '; }
# snarkjs groth16 verify exits 0 and says OK only for a valid proof.
snarkjs_accepts() { local out; out=$(snarkjs groth16 verify "$@" 2>&1) && grep -q "OK" <<< "$out"; }
snarkjs_refuses() { ! snarkjs_accepts "$@"; }
# A JSON edit: js FILE_IN FILE_OUT 'expression of p' (p is the parsed input).
js() {
  node -e 'const fs=require("fs");const p=JSON.parse(fs.readFileSync(process.argv[1]));
    const P=0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaabn;
    const R=0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;
    const hex=(s)=>"0x"+BigInt(s).toString(16);
    const out=eval(process.argv[3]);fs.writeFileSync(process.argv[2],typeof out=="string"?out:JSON.stringify(out))' "$@"
}

echo "edges: powers of tau (bls12381, 2^6)"
snarkjs powersoftau new bls12381 6 p0.ptau >/dev/null
snarkjs powersoftau contribute p0.ptau p1.ptau --name=test -e="$(rand)" >/dev/null
snarkjs powersoftau prepare phase2 p1.ptau pot.ptau >/dev/null

# snarkjs's domain holds the constraints plus nPublic + 1 rows: chain N has N
# constraints and one public output, so N = 2^k − 2 fills 2^k exactly.
k=$((3 + $(rand) % 3))
full=$(((1 << k) - 2))
cat > one.circom <<'EOF'
pragma circom 2.0.0;
// One constraint; the only public signal is the output.
template One() { signal input a; signal input b; signal output c; c <== a * b; }
component main = One();
EOF
cat > linear.circom <<'EOF'
pragma circom 2.0.0;
// No multiplication at all: one linear constraint.
template Linear() { signal input a; signal output c; c <== 3 * a + 7; }
component main {public [a]} = Linear();
EOF
for n in $full $((full + 1)); do
  cat > chain$n.circom <<EOF
pragma circom 2.0.0;
template Chain(n) {
  signal input x; signal output y; signal acc[n];
  acc[0] <== x * x;
  for (var i = 1; i < n; i++) { acc[i] <== acc[i - 1] * x + i; }
  y <== acc[n - 1];
}
component main = Chain($n);
EOF
done

for name in one linear chain$full chain$((full + 1)); do
  echo "edges: $name"
  circom2 $name.circom --r1cs --wasm --prime bls12381 -o . >/dev/null
  case $name in
    one) echo "{\"a\": \"$(rand)\", \"b\": \"$(rand)\"}" > $name.in.json ;;
    linear) echo "{\"a\": \"$(rand)\"}" > $name.in.json ;;
    *) echo "{\"x\": \"$(rand)\"}" > $name.in.json ;;
  esac
  node ${name}_js/generate_witness.js ${name}_js/$name.wasm $name.in.json $name.gw.wtns >/dev/null
  snarkjs wtns calculate ${name}_js/$name.wasm $name.in.json $name.wtns >/dev/null
  snarkjs zkey new $name.r1cs pot.ptau $name.zkey >/dev/null
  snarkjs zkey export verificationkey $name.zkey $name.vk.json >/dev/null
  for w in gw.wtns wtns; do
    run 0 "$name: cuzk proves ($w, a key with no contribution)" \
      "$CUZK" groth16 prove $name.zkey $name.$w $name.$w.proof.json $name.$w.public.json
    run 0 "$name: snarkjs accepts it" snarkjs_accepts $name.vk.json $name.$w.public.json $name.$w.proof.json
    run 0 "$name: cuzk accepts it" "$CUZK" groth16 verify $name.vk.json $name.$w.public.json $name.$w.proof.json
  done
  run 0 "$name: cuzk proves with --r1cs" "$CUZK" prove --zkey $name.zkey --r1cs $name.r1cs --wtns $name.wtns \
    --proof $name.r.proof.json --public $name.r.public.json
done
run 0 "chain$full: the domain is exactly full (2^$k)" \
  bash -c "'$CUZK' inspect chain$full.zkey | grep -qx 'domain size: $((1 << k)) = 2^$k'"
run 0 "chain$((full + 1)): one past it (2^$((k + 1)))" \
  bash -c "'$CUZK' inspect chain$((full + 1)).zkey | grep -qx 'domain size: $((1 << (k + 1))) = 2^$((k + 1))'"

echo "edges: JSON that snarkjs's reader takes"
base=wtns  # proof one.wtns.proof.json, public one.wtns.public.json, key one.vk.json
both_accept() {  # both_accept "description" PROOF PUBLIC
  run 0 "$1: snarkjs accepts" snarkjs_accepts one.vk.json "$3" "$2"
  run 0 "$1: cuzk accepts" "$CUZK" verify --vkey one.vk.json --public "$3" --proof "$2"
}
js one.$base.proof.json hex.proof.json '({...p, pi_a: p.pi_a.map(hex), pi_c: [hex(p.pi_c[0]), p.pi_c[1], p.pi_c[2]]})'
js one.$base.public.json hex.public.json 'p.map(hex)'
both_accept "hex strings" hex.proof.json hex.public.json
js one.$base.proof.json xy.proof.json '({...p, pi_a: p.pi_a.slice(0, 2), pi_b: p.pi_b.slice(0, 2)})'
both_accept "points as [x, y]" xy.proof.json one.$base.public.json
js one.$base.public.json lead.public.json 'p.map(x => "000" + x)'
js one.$base.proof.json spaced.proof.json \
  'JSON.stringify({curve: p.curve, pi_c: p.pi_c, protocol: p.protocol, pi_b: p.pi_b, pi_a: p.pi_a}, null, "\t\t")'
both_accept "leading zeros, key order and tabs" spaced.proof.json lead.public.json
# A small public value as a JSON number: the linear circuit's public input a.
a=$(rand)
echo "{\"a\": \"$a\"}" > num.in.json
snarkjs wtns calculate linear_js/linear.wasm num.in.json num.wtns >/dev/null
"$CUZK" groth16 prove linear.zkey num.wtns num.proof.json num.public.json
js num.public.json num.n.public.json '"[" + JSON.stringify(p[0]) + ", " + p[1] + "]"'
run 0 "a public value as a JSON number: snarkjs accepts" snarkjs_accepts linear.vk.json num.n.public.json num.proof.json
run 0 "... cuzk accepts" "$CUZK" verify --vkey linear.vk.json --public num.n.public.json --proof num.proof.json

echo "edges: what snarkjs refuses, cuzk refuses and names"
both_refuse() {  # both_refuse "description" PROOF PUBLIC PATTERN
  run 0 "$1: snarkjs refuses" snarkjs_refuses one.vk.json "$3" "$2"
  run 2 "$1: cuzk refuses" "$CUZK" groth16 verify one.vk.json "$3" "$2"
  says "saying why" "$4"
}
js one.$base.proof.json offcurve.proof.json '({...p, pi_c: [p.pi_c[0], (BigInt(p.pi_c[1]) + 1n).toString(), "1"]})'
both_refuse "pi_c off the curve" offcurve.proof.json one.$base.public.json 'pi_c.*not on the curve'
js one.$base.public.json plus_r.public.json 'p.map(x => (BigInt(x) + R).toString())'
both_refuse "a public value + r" one.$base.proof.json plus_r.public.json 'not below the field modulus \(values must be < r\)'
js one.$base.public.json neg.public.json 'p.map(x => "-" + x)'
both_refuse "a negative public value" one.$base.proof.json neg.public.json "unexpected character '-'"
js one.$base.public.json long.public.json 'p.concat([p[0]])'
both_refuse "one public value too many" one.$base.proof.json long.public.json \
  'long.public.json holds 2 public value\(s\), but the key one.vk.json takes 1'
echo '[]' > empty.public.json
both_refuse "no public value" one.$base.proof.json empty.public.json 'empty.public.json holds 0 public value'
js one.$base.proof.json neg_a.proof.json '({...p, pi_a: [p.pi_a[0], (P - BigInt(p.pi_a[1])).toString(), "1"]})'
run 0 "-A for A: snarkjs refuses" snarkjs_refuses one.vk.json one.$base.public.json neg_a.proof.json
run 1 "-A for A: cuzk says INVALID, exit 1" "$CUZK" groth16 verify one.vk.json one.$base.public.json neg_a.proof.json
says "INVALID" "^INVALID"

echo "edges: snarkjs's default curve, BN254"
mkdir -p bn && cp one.circom bn/
(cd bn && circom2 one.circom --r1cs --wasm -o . >/dev/null)  # circom's default prime: BN254
snarkjs powersoftau new bn128 3 bn0.ptau >/dev/null
snarkjs powersoftau contribute bn0.ptau bn1.ptau --name=test -e="$(rand)" >/dev/null
snarkjs powersoftau prepare phase2 bn1.ptau bn.ptau >/dev/null
snarkjs zkey new bn/one.r1cs bn.ptau bn.zkey >/dev/null
snarkjs zkey export verificationkey bn.zkey bn.vk.json >/dev/null
snarkjs groth16 fullprove one.in.json bn/one_js/one.wasm bn.zkey bn.proof.json bn.public.json >/dev/null
run 0 "snarkjs accepts its BN254 proof" snarkjs_accepts bn.vk.json bn.public.json bn.proof.json
run 2 "cuzk groth16 verify refuses the BN254 verification key" "$CUZK" groth16 verify bn.vk.json bn.public.json bn.proof.json
says "naming the file, the curve and the way out" \
  'bn.vk.json: .*the file is for BN254 \(bn128\), not BLS12-381.*circom --prime bls12381'
run 2 "a BN254 proof against a BLS12-381 key" "$CUZK" verify --vkey one.vk.json --public bn.public.json --proof bn.proof.json
says "is named for its curve" 'bn.proof.json: .*BN254 \(bn128\)'
run 0 "inspect says the BN254 key is unsupported" "$CUZK" inspect bn.vk.json
says "so" '^supported by cuzk: no$'

echo "edges: snarkjs's command-line forms"
run 0 "cuzk g16p (snarkjs's short form of groth16 prove)" "$CUZK" g16p one.zkey one.wtns g.proof.json g.public.json
run 0 "snarkjs accepts that proof" snarkjs_accepts one.vk.json g.public.json g.proof.json
run 0 "cuzk g16v" "$CUZK" g16v one.vk.json g.public.json g.proof.json
run 0 "cuzk groth16 verify -v" "$CUZK" groth16 verify one.vk.json g.public.json g.proof.json -v
run 1 "cuzk g16v on a tampered proof: exit 1" "$CUZK" g16v one.vk.json g.public.json neg_a.proof.json
run 0 "snarkjs writes over an existing proof.json; so does groth16 prove" \
  "$CUZK" groth16 prove one.zkey one.gw.wtns g.proof.json g.public.json
run 0 "... and the new proof verifies" snarkjs_accepts one.vk.json g.public.json g.proof.json

echo "edges: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
