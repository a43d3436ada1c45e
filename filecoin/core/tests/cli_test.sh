#!/usr/bin/env bash
# End-to-end check of `cuzk filecoin`: seal a 2 KiB sector, check its vanilla
# proofs (PoRep C1, Window/Winning PoSt, SnapDeals), then for every proof kind
# build the public inputs, make an INSECURE dev proof carrying them, and check
# that verify-* accepts it and rejects a tampered proof and wrong parameters.
# Usage: cli_test.sh path/to/cuzk
set -euo pipefail

cuzk=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A step that fails without a message of its own (a pipeline, a grep) names its line.
trap 'echo "FAILED: $BASH_SOURCE line $LINENO: $BASH_COMMAND" >&2' ERR

expect() {  # expect CODE command...
  local want=$1
  shift
  set +e
  "$@" >"$work/out" 2>&1
  local got=$?
  set -e
  if [[ $got != "$want" ]]; then
    echo "FAILED (exit $got, expected $want): $*" >&2
    cat "$work/out" >&2
    exit 1
  fi
}

randomness=$(printf '%064x' 12345)
"$cuzk" filecoin seal --out "$work/s" --post-randomness "$randomness" --snap --miner-id 1000 --sector 7 >/dev/null
# shellcheck disable=SC1091
source "$work/s/seal.env"

# Vanilla proofs.
expect 0 "$cuzk" filecoin check-vanilla --kind porep "$work/s/c1-envelope.json"
expect 0 "$cuzk" filecoin check-vanilla --kind porep "$work/s/c1.json"
expect 0 "$cuzk" filecoin check-vanilla --kind post "$work/s/post-window.vproof" --registered-proof "$WINDOW_POST_PROOF" \
  --randomness "$POST_RANDOMNESS"
expect 0 "$cuzk" filecoin check-vanilla --kind post "$work/s/post-winning.vproof" --registered-proof "$WINNING_POST_PROOF" \
  --randomness "$POST_RANDOMNESS"
expect 1 "$cuzk" filecoin check-vanilla --kind post "$work/s/post-window.vproof" --registered-proof "$WINDOW_POST_PROOF" \
  --randomness "$(printf '%064x' 1)"
expect 0 "$cuzk" filecoin check-vanilla --kind snap "$work/s/snap-partition-0.bin" --registered-proof "$UPDATE_PROOF" \
  --comm-r-old "$COMM_R" --comm-d-new "$COMM_D_NEW" --comm-r-new "$COMM_R_NEW"
# Every kind from seal's outputs as the daemon takes them: the circuit
# synthesized from the vanilla proof, every row checked and its public inputs
# compared with the parameters' (`filecoin check` decodes as the daemon does).
# Winning PoSt: 66 openings, as rust-fil-proofs makes them
# (filecoin-proofs/src/constants.rs WINNING_POST_CHALLENGE_COUNT = 66;
# seal used to write one, which the daemon padded and could not prove).
expect 0 "$cuzk" filecoin check --kind porep --registered-proof "$SEAL_PROOF" --vanilla "$work/s/c1-envelope.json" \
  --witness-stats
# The witness by query: each line's classes add up to its positions, the tail's
# bit-length classes to the tail, and L covers every value but the inputs.
awk '
  /^partition 0:/ { values = $3; inputs = $5; sub(/\(/, "", inputs) }
  /^[LAB]: / {
    gsub(/[(),:%]/, " ")
    pos = $2; zeros = $5; ones = $8; tail = $11; bits = $13 + $14 + $15 + $16 + $17
    if (zeros + ones + tail != pos || bits != tail) { print "classes do not add up: " $0; bad = 1 }
    if ($1 == "L" && pos != values - inputs) { print "L covers " pos " of " values - inputs " aux"; bad = 1 }
    seen++
  }
  END { if (seen != 3 || bad) exit 1 }' "$work/out" || { echo "FAILED: filecoin check --witness-stats" >&2; cat "$work/out" >&2; exit 1; }
expect 0 "$cuzk" filecoin check --kind window-post --registered-proof "$WINDOW_POST_PROOF" \
  --vanilla "$work/s/post-window.vproof" --randomness "$POST_RANDOMNESS"
expect 0 "$cuzk" filecoin check --kind winning-post --registered-proof "$WINNING_POST_PROOF" \
  --vanilla "$work/s/post-winning.vproof" --randomness "$POST_RANDOMNESS"
expect 0 "$cuzk" filecoin check --kind snap-deals --registered-proof "$UPDATE_PROOF" \
  --vanilla "$work/s/snap-partition-0.bin" --comm-r-old "$COMM_R" --comm-d-new "$COMM_D_NEW" --comm-r-new "$COMM_R_NEW"
# The same Winning proof cut to its first opening (bincode: sector_id, comm_r,
# sectors.len, then inclusion_proofs.len at byte 48, the openings, comm_c and
# comm_r_last): refused by check-vanilla and by the daemon's decoding, saying why.
size=$(stat -c %s "$work/s/post-winning.vproof")
opening=$(((size - 56 - 64) / 66))
{
  head -c 48 "$work/s/post-winning.vproof"
  printf '\x01\x00\x00\x00\x00\x00\x00\x00'
  # (head first: `tail | head -c` ends with tail killed by SIGPIPE, which
  # pipefail turns into a silent failure of the whole script.)
  head -c "$((56 + opening))" "$work/s/post-winning.vproof" | tail -c "$opening"
  tail -c 64 "$work/s/post-winning.vproof"
} >"$work/short-winning.vproof"
expect 1 "$cuzk" filecoin check-vanilla --kind post "$work/short-winning.vproof" --registered-proof "$WINNING_POST_PROOF" \
  --randomness "$POST_RANDOMNESS"
grep -q "expected 66" "$work/out" || { echo "FAILED: check-vanilla did not say 66 openings are expected" >&2; exit 1; }
expect 2 "$cuzk" filecoin check --kind winning-post --registered-proof "$WINNING_POST_PROOF" \
  --vanilla "$work/short-winning.vproof" --randomness "$POST_RANDOMNESS"
grep -q "has 1 openings; Winning PoSt needs 66" "$work/out" || { echo "FAILED: a short Winning proof was not refused plainly" >&2; exit 1; }

head -c 100 "$work/s/post-window.vproof" >"$work/trunc.vproof"
expect 2 "$cuzk" filecoin check-vanilla --kind post "$work/trunc.vproof" --registered-proof "$WINDOW_POST_PROOF" \
  --randomness "$POST_RANDOMNESS"

# flip_bit FILE OFFSET: xor the byte at OFFSET with 1.
flip_bit() {
  local byte
  byte=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
  printf "\\x$(printf '%02x' $((byte ^ 1)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# prove_and_check NAME VERIFY-ARGS...: inputs, dev proof, accept, reject tampered.
prove_and_check() {
  local name=$1
  shift
  expect 0 "$cuzk" filecoin "$@" --inputs-out "$work/$name-in"
  local publics=()
  for f in "$work/$name-in"/public-*.json; do publics+=(--public "$f"); done
  expect 0 "$cuzk" filecoin dev-prove "${publics[@]}" --vk "$work/$name.vk" --proof "$work/$name.proof" --dev-seed 11
  expect 0 "$cuzk" filecoin "$@" --vk "$work/$name.vk" --proof "$work/$name.proof"
  # Flip the low bit of byte 180 (inside C, the last 48 bytes): a point off the
  # curve or another proof. (Xor, not overwrite: a byte that already held the
  # written value would leave the proof unchanged.)
  cp "$work/$name.proof" "$work/$name.bad"
  flip_bit "$work/$name.bad" 180
  if cmp -s "$work/$name.proof" "$work/$name.bad"; then echo "FAILED: the $name proof was not changed" >&2; exit 1; fi
  set +e
  "$cuzk" filecoin "$@" --vk "$work/$name.vk" --proof "$work/$name.bad" >/dev/null 2>&1
  local rc=$?
  set -e
  if [[ $rc == 0 ]]; then
    echo "FAILED: a tampered $name proof verified" >&2
    exit 1
  fi
}

prove_and_check seal verify-seal --registered-proof "$SEAL_PROOF" --comm-r "$SEALED_CID" --comm-d "$UNSEALED_CID" \
  --ticket "$TICKET" --seed "$SEED" --miner-id 1000 --sector "$SECTOR"
# Another sector number gives another replica_id (input 0). (Another seed may
# pick the same 2 of 63 challenges of a 2 KiB sector.)
expect 1 "$cuzk" filecoin verify-seal --registered-proof "$SEAL_PROOF" --comm-r "$COMM_R" --comm-d "$COMM_D" \
  --ticket "$TICKET" --seed "$SEED" --miner-id 1000 --sector "$((SECTOR + 1))" --vk "$work/seal.vk" --proof "$work/seal.proof"
expect 0 "$cuzk" filecoin verify-seal --c1 "$work/s/c1.json" --registered-proof "$SEAL_PROOF" --miner-id 1000 \
  --sector "$SECTOR" --vk "$work/seal.vk" --proof "$work/seal.proof"

# The proof type and (from Curio's envelope) the sector number come from the C1 output.
expect 0 "$cuzk" filecoin verify-seal --c1 "$work/s/c1-envelope.json" --miner-id 1000 --vk "$work/seal.vk" \
  --proof "$work/seal.proof"
expect 0 "$cuzk" filecoin verify-seal --c1 "$work/s/c1.json" --miner-id 1000 --sector "$SECTOR" --vk "$work/seal.vk" \
  --proof "$work/seal.proof"
expect 2 "$cuzk" filecoin verify-seal --c1 "$work/s/c1.json" --miner-id 1000 --vk "$work/seal.vk" --proof "$work/seal.proof"
grep -q "give --sector" "$work/out"
# PoRepConfig's overrides: the proof type's own porep_id and API version verify, another porep_id
# (another replica_id) does not, an unknown version is an input error.
expect 0 "$cuzk" filecoin verify-seal --c1 "$work/s/c1-envelope.json" --miner-id 1000 --porep-id "$POREP_ID" \
  --api-version 1.1.0 --vk "$work/seal.vk" --proof "$work/seal.proof"
expect 1 "$cuzk" filecoin verify-seal --c1 "$work/s/c1-envelope.json" --miner-id 1000 \
  --porep-id "$(printf '%064x' $((RANDOM + 1000)))" --vk "$work/seal.vk" --proof "$work/seal.proof"
expect 2 "$cuzk" filecoin verify-seal --c1 "$work/s/c1-envelope.json" --miner-id 1000 --api-version 9.9.9 \
  --vk "$work/seal.vk" --proof "$work/seal.proof"

prove_and_check window verify-window-post --registered-proof "$WINDOW_POST_PROOF" --randomness "$POST_RANDOMNESS" \
  --sector-comm-r "$SECTOR:$COMM_R"
expect 1 "$cuzk" filecoin verify-window-post --registered-proof "$WINDOW_POST_PROOF" --randomness "$POST_RANDOMNESS" \
  --sector-comm-r "$((SECTOR + 1)):$COMM_R" --vk "$work/window.vk" --proof "$work/window.proof"

prove_and_check winning verify-winning-post --registered-proof "$WINNING_POST_PROOF" --randomness "$POST_RANDOMNESS" \
  --sector "$SECTOR" --comm-r "$COMM_R"

prove_and_check snap verify-snap --registered-proof "$UPDATE_PROOF" --comm-r-old "$COMM_R" --comm-d-new "$COMM_D_NEW" \
  --comm-r-new "$COMM_R_NEW"
expect 1 "$cuzk" filecoin verify-snap --registered-proof "$UPDATE_PROOF" --comm-r-old "$COMM_R_NEW" \
  --comm-d-new "$COMM_D_NEW" --comm-r-new "$COMM_R_NEW" --vk "$work/snap.vk" --proof "$work/snap.proof"

# `filecoin prove` refuses, before connecting (no daemon here), what the daemon would refuse:
nodaemon=unix://$work/none.sock
expect 2 "$cuzk" filecoin prove --addr "$nodaemon" --kind window-post --registered-proof "$WINDOW_POST_PROOF" \
  --vanilla "$work/s/post-window.vproof" --out "$work/x.proof"
grep -q "needs --randomness" "$work/out"
expect 2 "$cuzk" filecoin prove --addr "$nodaemon" --kind window-post --registered-proof "$WINDOW_POST_PROOF" \
  --randomness "$POST_RANDOMNESS" --vanilla "$work/s/c1.json" --out "$work/x.proof"
grep -q "c1.json is JSON (a C1 output?)" "$work/out"
expect 2 "$cuzk" filecoin prove --addr "$nodaemon" --kind window-post --registered-proof "$WINNING_POST_PROOF" \
  --randomness "$POST_RANDOMNESS" --vanilla "$work/s/post-window.vproof" --out "$work/x.proof"
grep -q "is a Winning PoSt proof type; --kind window-post takes a Window PoSt one" "$work/out"
expect 2 "$cuzk" filecoin prove --addr "$nodaemon" --kind porep --registered-proof "$WINDOW_POST_PROOF" \
  --vanilla "$work/s/c1-envelope.json" --out "$work/x.proof"
grep -q "is a Window PoSt proof type; --kind porep takes a PoRep (seal) one" "$work/out"
expect 2 "$cuzk" filecoin prove --addr "$nodaemon" --kind porep --registered-proof "$SEAL_PROOF" --sector-size 8MiB \
  --vanilla "$work/s/c1-envelope.json" --out "$work/x.proof"
grep -q "is not the size of" "$work/out"
# A request it would send: past the checks (2KiB parses, and is the proof type's size), the
# missing daemon is what stops it.
expect 1 "$cuzk" filecoin prove --addr "$nodaemon" --kind porep --registered-proof "$SEAL_PROOF" --sector-size 2KiB \
  --vanilla "$work/s/c1-envelope.json" --out "$work/x.proof"
[[ ! -e "$work/x.proof" ]] || { echo "FAILED: a proof file was written" >&2; exit 1; }
# --sector-size is read as every size in cuzk (base/byte_size.h: binary units, any case).
for size in 2K 2k 2kib "2 KiB" 2048; do
  expect 1 "$cuzk" filecoin prove --addr "$nodaemon" --kind porep --registered-proof "$SEAL_PROOF" --sector-size "$size" \
    --vanilla "$work/s/c1-envelope.json" --out "$work/x.proof"
done
expect 2 "$cuzk" filecoin prove --addr "$nodaemon" --kind porep --registered-proof "$SEAL_PROOF" --sector-size 2Q \
  --vanilla "$work/s/c1-envelope.json" --out "$work/x.proof"
grep -q -- "--sector-size: .*2Q" "$work/out"

expect 2 "$cuzk" filecoin verify-seal --registered-proof 99 --comm-r "$COMM_R" --comm-d "$COMM_D" --ticket "$TICKET" \
  --seed "$SEED" --miner-id 1000 --sector 1 --vk "$work/seal.vk" --proof "$work/seal.proof"
# What a kind's key and partitions take (docs/filecoin.md, "Memory each kind needs").
expect 0 "$cuzk" filecoin circuit --kind winning-post --sector-size 2KiB --memory --workers 3
grep -q "proving key's points" "$work/out"
grep -q "at most 6 partitions hold inputs at once (preparation_workers 2 + workers 3 + 1)" "$work/out"
grep -Eq "^GPU memory, 3 workers a device|^GPU memory: this build has no CUDA backend" "$work/out"
expect 2 "$cuzk" filecoin circuit --kind winning-post --sector-size 2KiB --memory --workers 0
echo "cuzk filecoin CLI: all checks passed"
