#!/usr/bin/env bash
# The daemon client as a user meets it: --circuit required, argument errors
# without gRPC codes and the daemon's with them, a BN254 witness named as
# such, the job id said at submit, Ctrl-C cancelling the job it submitted,
# `cuzk status` listing every registered circuit with its tier and the recent
# jobs (--json: the whole status, an unfinished job's outcome null), job ids
# that do not repeat after a restart, and --public writing one list per proof.
#   cli_daemon_test.sh path/to/cuzk WORKDIR
set -euo pipefail
# shellcheck source=tests/lib/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/checks.sh"
cuzk=$(realpath "$1")
work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work" && cd "$work"
pid=""
cleanup() { [[ -n $pid ]] && kill "$pid" 2>/dev/null; wait 2>/dev/null || true; }
trap cleanup EXIT
# shellcheck source=tests/lib/waits.sh
source "$here/../lib/waits.sh"
start_daemon() {
  "$cuzk" serve --config cuzk.toml > serve.out 2> serve.err &
  pid=$!
  wait_for grep -q "serving on" serve.out 2>/dev/null || true
  grep -q "serving on" serve.out || { cat serve.err; exit 1; }
}
stop_daemon() { kill "$pid"; wait "$pid" || true; pid=""; rm -f serve.out; }

# The demo circuit, and a second circuit registered with the demo's key file.
printf '[cache]\ndir = "%s/cache"\n[demo]\nlg_domain = 11\n' "$work" > demo.toml
"$cuzk" demo-witness --config demo.toml --out w.wtns --vk vk.json > /dev/null 2>&1
cat > cuzk.toml <<TOML
[server]
listen = "unix://$work/cuzk.sock"
status_listen = "off"
shutdown_grace_ms = 0
[cache]
dir = "$work/cache"
[demo]
lg_domain = 11
[pipeline]
workers_per_device = 1
[[circuits]]
id = "copy"
zkey = "$(ls "$work"/cache/*.zkey)"
TOML
addr="unix://$work/cuzk.sock"
start_daemon

echo "cli: metrics of a daemon that has done nothing yet"
run 0 "status --metrics" "$cuzk" status --addr "$addr" --metrics
cp "$last" metrics.txt
says "HELP and TYPE of a counter" "^# HELP cuzk_proofs_completed_total .+"
says "... its type" "^# TYPE cuzk_proofs_completed_total counter$"
says "counters present at 0 by kind" '^cuzk_proofs_failed_total\{kind="GROTH16_CIRCUIT"\} 0$'
says "unlabeled counters at 0" "^cuzk_self_verify_failures_total 0$"
says "per registered circuit" '^cuzk_key_loads_total\{circuit="copy"\} 0$'
says "per RPC method" '^cuzk_rpc_total\{method="Prove",code="OK"\} 0$'
no_help=$(awk '/^# HELP /{h[$3]=1} /^# TYPE /{if(!h[$3]) print $3}' metrics.txt)
run 0 "every family has a HELP line (missing: ${no_help:-none})" test -z "$no_help"
# Every metric docs/daemon.md lists is there from the start.
documented=$(sed -n '/^`GET \/metrics`/,/^$/p' "$here/../../docs/daemon.md" | grep -oE 'cuzk_[a-z_]+' | sort -u)
missing=""
for name in $documented; do
  grep -qE "^# TYPE $name " metrics.txt || missing="$missing $name"
done
run 0 "docs/daemon.md lists the metrics ($(wc -w <<< "$documented") names)" test "$(wc -w <<< "$documented")" -ge 20
run 0 "every one is there from the start (missing:${missing:- none})" test -z "$missing"

echo "cli: the daemon client's arguments"
run 2 "--addr without --circuit" "$cuzk" prove --addr "$addr" --wtns w.wtns
says "says --circuit is required" "--circuit ID is required"
lacks "without a gRPC code" "INVALID_ARGUMENT"
run 2 "a bad --priority" "$cuzk" prove --addr "$addr" --circuit demo --priority urgent --wtns w.wtns
lacks "without a gRPC code" "INVALID_ARGUMENT"
run 2 "an option of proving from key files (--backend) is refused, not ignored" \
  "$cuzk" prove --addr "$addr" --circuit demo --wtns w.wtns --backend cpu
says "naming it" "--backend belongs to proving from key files"
run 2 "... as is --verbose" "$cuzk" prove --addr "$addr" --circuit demo --wtns w.wtns --verbose
says "naming it" "--verbose belongs to proving from key files"
run 2 "an unknown circuit" "$cuzk" prove --addr "$addr" --circuit nope --wtns w.wtns
says "the daemon's answer keeps its code" "NOT_FOUND: .*nope"
# The demo witness with BN254's r as its prime (header section: n8, then the prime).
cp w.wtns bn.wtns
printf '\x01\x00\x00\xf0\x93\xf5\xe1\x43\x91\x70\xb9\x79\x48\xe8\x33\x28\x5d\x58\x81\x81\xb6\x45\x50\xb8\x29\xa0\x31\xe1\x72\x4e\x64\x30' |
  dd of=bn.wtns bs=1 seek=28 conv=notrunc status=none
run 2 "a BN254 witness" "$cuzk" prove --addr "$addr" --circuit demo --wtns bn.wtns
says "keeps the --prime bls12381 hint" "circom --prime bls12381"

echo "cli: jobs"
run 0 "a proof through the daemon" "$cuzk" prove --addr "$addr" --circuit demo --wtns w.wtns --proof p.json --public pub.json
says "the job id is said at submit" "submitted job-[a-z0-9]+-1 "
first_id=$(grep -oE "job-[a-z0-9]+-1" "$last" | head -1)
run 0 "two witnesses, --public" "$cuzk" prove --addr "$addr" --circuit copy --wtns w.wtns --extra-wtns w.wtns \
  --proof two.bin --public two.pub.json
run 0 "... one list per proof" bash -c "tr -d ' \n' < two.pub.json | grep -q '^\[\['"
run 0 "... which verify checks, each proof against its list" "$cuzk" verify --vkey vk.json --public two.pub.json --proof two.bin
says "both" "proof 1 of 2: OK"
extra=()
for _ in $(seq 250); do extra+=(--extra-wtns w.wtns); done  # seconds of work even on a fast machine
"$cuzk" prove --addr "$addr" --circuit demo --wtns w.wtns "${extra[@]}" --proof long.bin > long.out 2> long.err &
client=$!
wait_for grep -q "submitted" long.err 2>/dev/null || true
long_id=$(grep -oE "job-[a-z0-9]+-[0-9]+" long.err | head -1)
run 0 "status --json while a job runs" "$cuzk" status --addr "$addr" --json
says "an unfinished job's outcome is null" "\"outcome\": null"
says "the whole status" "\"keys\": \["
kill -INT "$client"
rc=0; wait "$client" || rc=$?
run 0 "Ctrl-C: the client exits 130" test "$rc" -eq 130
last=long.err
says "saying it cancelled the job" "cancelled $long_id"
run 0 "cuzk status" "$cuzk" status --addr "$addr"
says "lists the demo circuit with its tier" "^  demo +HOT "
says "and the other one, never loaded" "^  copy +(HOT|WARM|COLD) "
says "and the cancelled job" "$long_id +demo +NORMAL +CANCELLED"
run 0 "... nothing was written for it" test ! -e long.bin

echo "cli: a restart"
stop_daemon
start_daemon
run 0 "a proof after the restart" "$cuzk" prove --addr "$addr" --circuit demo --wtns w.wtns
second_id=$(grep -oE "job-[a-z0-9]+-1" "$last" | head -1)
run 0 "its job id is new ($first_id, then $second_id)" test -n "$second_id" -a "$first_id" != "$second_id"
stop_daemon

echo "cli: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
