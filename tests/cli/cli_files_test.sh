#!/usr/bin/env bash
# The file commands as a user meets them, on the demo circuit's key (an
# INSECURE development key made by `cuzk demo-witness`):
#   - snarkjs's positional forms (cuzk groth16 prove|verify, also with
#     snarkjs's default file names) and its exit status (0 valid, 1 invalid);
#   - a file of the wrong kind named for what it is and the option that takes it;
#   - setup keeps an existing file unless --force;
#   - --json of prove, verify, inspect;
#   - --full-check remembered by content digest;
#   - a multi-proof file checked by --index or whole, one list of public inputs per proof.
#   cli_files_test.sh path/to/cuzk WORKDIR
set -euo pipefail
# shellcheck source=tests/lib/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/checks.sh"
cuzk=$(realpath "$1")
work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work"

printf '[cache]\ndir = "%s/cache"\n[demo]\nlg_domain = 8\npublic_inputs = 3\n' "$work" > cuzk.toml
"$cuzk" demo-witness --config cuzk.toml --out w.wtns --vk vk.json > /dev/null
zkey=$(ls cache/*.zkey)
circuit=$(ls cache/*.cuzkr1cs)

echo "cli: snarkjs's command lines"
run 0 "groth16 prove circuit.zkey witness.wtns proof.json public.json" \
  "$cuzk" groth16 prove "$zkey" w.wtns proof.json public.json
run 0 "groth16 verify verification_key.json public.json proof.json" "$cuzk" groth16 verify vk.json public.json proof.json
says "it says OK" "^OK"
mkdir defaults && cp "$zkey" defaults/circuit_final.zkey && cp w.wtns defaults/witness.wtns && cp vk.json defaults/verification_key.json
run 0 "groth16 prove with snarkjs's default names" bash -c "cd defaults && '$cuzk' groth16 prove"
run 0 "... wrote proof.json and public.json" test -s defaults/proof.json -a -s defaults/public.json
run 0 "groth16 verify with snarkjs's default names" bash -c "cd defaults && '$cuzk' groth16 verify"
sed -E '0,/"[0-9]+"/s/"[0-9]+"/"12345"/' public.json > bumped.json  # another first public input
run 1 "a changed public input: exit 1" "$cuzk" groth16 verify vk.json bumped.json proof.json
says "it says INVALID" "^INVALID"
run 0 "cuzk prove takes the positional form too" "$cuzk" prove "$zkey" w.wtns p2.json pub2.json
run 0 "... and verify" "$cuzk" verify vk.json pub2.json p2.json
run 2 "positional files and options together are refused" "$cuzk" prove "$zkey" w.wtns --proof x.json
run 2 "an output that is an input is refused" "$cuzk" groth16 prove "$zkey" w.wtns w.wtns public.json
says "naming it by its place" "w.wtns, given 3rd \\(the proof.json to write\\), is also an input"
lacks "naming no option" "--proof"
run 2 "an output in a directory that does not exist" "$cuzk" groth16 prove "$zkey" w.wtns nodir/p.json nodir/pub.json
says "names the file as given" "create nodir/p.json: No such file or directory"
lacks "not a temporary name" "partial"

echo "cli: groth16 prove talks as snarkjs does"
run 0 "groth16 prove prints nothing on success" "$cuzk" groth16 prove "$zkey" w.wtns quiet.json quiet.pub.json
run 0 "... (stdout and stderr empty)" test ! -s "$last"
run 0 "groth16 prove --verbose" "$cuzk" groth16 prove "$zkey" w.wtns quiet.json quiet.pub.json --verbose
says "says where it proves" "^cuzk groth16 prove: (no GPU found, proving on the cpu|proving on )"
says "and the times" "^cuzk groth16 prove: load [0-9.]+ s"
run 0 "cuzk prove" "$cuzk" prove --zkey "$zkey" --wtns w.wtns --proof talk.json
says "says where it proves" "^cuzk prove: (no GPU found, proving on the cpu|proving on )"
lacks "no source location in any message" "\.(cc|cu|h):[0-9]+|/src/"
lacks "no stage lines without --verbose" "stages \(ms\)"
run 0 "... once" test "$(grep -c "proving on" "$last")" -eq 1

echo "cli: conventional command line"
run 0 "cuzk --version" "$cuzk" --version
says "says the version" "^cuzk [0-9]+\.[0-9]+"
run 0 "cuzk help" "$cuzk" help
says "lists the commands" "groth16"
run 0 "cuzk help groth16 prove" "$cuzk" help groth16 prove
says "shows that command's help" "circuit.zkey witness.wtns proof.json public.json"
run 2 "cuzk help frobnicate" "$cuzk" help frobnicate
says "names it" '"frobnicate" is not a command'
run 2 "an unknown subcommand: groth16 fullprove" "$cuzk" groth16 fullprove in.json c.wasm c.zkey p.json pub.json
says "names it and suggests" '^cuzk groth16: "fullprove" is not a command; did you mean "prove"\?'
says "says how to get the witness" "snarkjs wtns calculate"
lacks "not the generic message" "A subcommand is required"
run 2 "a misspelt command" "$cuzk" verfiy vk.json public.json proof.json
says "suggests the right one" 'did you mean "verify"\?'
run 2 "--json on a bad input" "$cuzk" groth16 prove "$zkey" missing.wtns j.json --json
says "a JSON error object on stdout" '^\{"code":"[A-Z_]+","command":"groth16 prove","error":".*missing.wtns.*","exit_code":2,"ok":false\}$'
run 2 "--json with an unknown option" "$cuzk" verify --json --frobnicate
says "a JSON error object too" '^\{"code":"INVALID_ARGUMENT","command":"verify","error":".*frobnicate.*","exit_code":2,"ok":false\}$'
run 2 "--json with an unknown command" "$cuzk" groth16 fullprove --json
says "a JSON error object too" '^\{"code":"INVALID_ARGUMENT",.*"error":".*fullprove.*","exit_code":2,"ok":false\}$'

echo "cli: files of the wrong kind"
run 2 "--params given a .zkey" "$cuzk" prove --params "$zkey" --r1cs "$circuit" --wtns w.wtns
says "says what it is and which option takes it" "the file is a snarkjs Groth16 proving key \(.zkey\); give it to --zkey"
run 2 "--vk given verification_key.json" "$cuzk" verify --vk vk.json --public public.json --proof proof.json
says "names --vkey" "give it to --vkey"
run 2 "the witness and the key swapped" "$cuzk" groth16 prove w.wtns "$zkey" out.json out.pub.json
says "says so" "^cuzk groth16 prove: files swapped\? w.wtns \(1st\) is a circom witness \(.wtns\) and .*zkey \(2nd\) is a snarkjs"
lacks "naming no option the user did not type" "--wtns|--zkey"
run 2 "public.json and proof.json swapped" "$cuzk" groth16 verify vk.json proof.json public.json
says "says so" "files swapped\? proof.json \(2nd\) is a snarkjs proof .* and public.json \(3rd\)"
lacks "naming no option" "--public|--proof"
run 2 "the witness in the key's place, twice" "$cuzk" groth16 prove w.wtns w.wtns out.json
says "says where it goes" "w.wtns \(1st\) is a circom witness \(.wtns\): it goes 2nd, as witness.wtns"
run 2 "public.json given as the proof" "$cuzk" verify --vkey vk.json --public public.json --proof public.json
says "names --public" "give it to --public"
run 0 "--vkey takes a .zkey (its verifying key)" "$cuzk" verify --vkey "$zkey" --public public.json --proof proof.json
run 2 "a missing file: exit 2" "$cuzk" verify --vkey vk.json --public public.json --proof missing.json
says "naming it" "missing.json"
lacks "without a doubled path" "missing.json: .*missing.json"

echo "cli: setup keeps existing files"
cp "$zkey" precious.zkey
run 2 "setup onto an existing file without --force" \
  "$cuzk" setup --r1cs "$circuit" --zkey precious.zkey --dev-seed 5
says "says it exists and how to replace it" "precious.zkey exists \(a snarkjs Groth16 proving key \(.zkey\)\); pass --force"
run 0 "... and left it as it was" cmp -s "$zkey" precious.zkey
run 0 "setup --force replaces it" "$cuzk" setup --r1cs "$circuit" --zkey precious.zkey --vkey precious.vk.json --dev-seed 5 --force
run 1 "... with a new key" cmp -s "$zkey" precious.zkey
run 0 "setup writing both formats" \
  "$cuzk" setup --r1cs "$circuit" --zkey both.zkey --vkey both.vk.json --params both.params --vk both.vk --dev-seed 9
says "says plainly they are two different keys" "two different keys"
run 0 "the .params proves" "$cuzk" prove --params both.params --r1cs "$circuit" --wtns w.wtns --proof b.proof --public b.pub.json
run 0 "... and its proof verifies against the .vk" "$cuzk" verify --vk both.vk --public b.pub.json --proof b.proof
run 0 "... and against the .params' own verifying key" "$cuzk" verify --vk both.params --public b.pub.json --proof b.proof
run 1 "... but not against the snarkjs files of the same run" \
  "$cuzk" verify --vkey both.vk.json --public b.pub.json --proof b.proof
printf '[cache]\ndir = "%s/cache9"\n[demo]\nlg_domain = 9\npublic_inputs = 2\n' "$work" > other.toml
"$cuzk" demo-witness --config other.toml --out other.wtns > /dev/null
"$cuzk" setup --r1cs "$(ls cache9/*.cuzkr1cs)" --params other.params --dev-seed 3 2> /dev/null
run 2 "a .params of another circuit" "$cuzk" prove --params other.params --r1cs "$circuit" --wtns w.wtns --proof x.bin
says "is named as such, with both files" "other.params is not a key of .*cuzkr1cs"
run 0 "... and nothing was written" test ! -e x.bin
run 2 "a zkey and an r1cs of different circuits" "$cuzk" prove --zkey "$zkey" --r1cs "$(ls cache9/*.cuzkr1cs)" --wtns w.wtns
says "name the key, not the witness" "is not a key of .*demo-k9"
run 2 "a witness of another circuit" "$cuzk" prove --zkey "$zkey" --wtns other.wtns --proof x.json
says "says the witness and the key differ" "other.wtns has [0-9]+ values .* the witness and the key are of different circuits"
run 2 "--full-check and --no-check together" "$cuzk" prove --zkey "$zkey" --wtns w.wtns --full-check --no-check
says "exclude each other" "excludes"

echo "cli: --json"
run 0 "prove --json" "$cuzk" prove --zkey "$zkey" --wtns w.wtns --proof j.json --public j.pub.json --json
says "one JSON object with the times" '^\{"key":.*"seconds":\{.*"verified":true'
run 0 "verify --json" "$cuzk" verify --vkey vk.json --public j.pub.json --proof j.json --json
says "valid" '^\{"checked":\[\{"index":0,"valid":true\}\],"proofs_in_file":1,"valid":true\}'
run 0 "inspect --json" "$cuzk" inspect "$zkey" --json
says "kind and counts" '"kind": "snarkjs Groth16 proving key \(.zkey\)"'
says "the sections" '"sections": \['
run 0 "inspect of a precompiled circuit" "$cuzk" inspect "$circuit"
says "describes it" "kind: cuzk precompiled circuit"

echo "cli: --full-check"
run 0 "first run checks every point" "$cuzk" prove --zkey "$zkey" --wtns w.wtns --full-check --cache-dir "$work/c1"
says "and says so" "every point is in the prime-order subgroup"
run 0 "the next run finds the key in the record" "$cuzk" prove --zkey "$zkey" --wtns w.wtns --full-check --cache-dir "$work/c1"
says "and says so" "checked in an earlier run"

echo "cli: multi-proof files"
"$cuzk" prove --zkey "$zkey" --wtns w.wtns --proof one.bin --public one.pub.json 2> /dev/null
cat one.bin one.bin > two.bin
printf '[%s,%s]' "$(cat one.pub.json)" "$(cat one.pub.json)" > two.pub.json
run 0 "every proof, each against its list" "$cuzk" verify --vkey vk.json --public two.pub.json --proof two.bin
says "both checked" "proof 1 of 2: OK"
run 0 "one proof by --index against a flat list" "$cuzk" verify --vkey vk.json --public one.pub.json --proof two.bin --index 1
printf '[%s,%s]' "$(cat one.pub.json)" "$(cat bumped.json)" > bad2.pub.json
run 1 "a wrong list for the second proof: exit 1" "$cuzk" verify --vkey vk.json --public bad2.pub.json --proof two.bin
says "naming it" "proof 1 of 2: INVALID"
run 2 "--index past the end" "$cuzk" verify --vkey vk.json --public one.pub.json --proof two.bin --index 2
run 2 "two proofs and one list without --index" "$cuzk" verify --vkey vk.json --public one.pub.json --proof two.bin
says "says what to do" "--index"

echo "cli: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
