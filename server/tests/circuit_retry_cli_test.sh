#!/usr/bin/env bash
# `cuzk serve` started before a circuit's key file is there (a .params file
# still downloading): the circuit is failed, `cuzk preload` of it tries again
# each time (at most once a second) and names the file while it is missing or
# cut short, then loads it once the whole file is there; the state in `cuzk
# status` goes from failed to ready, and the other circuit is served
# throughout.   circuit_retry_cli_test.sh path/to/cuzk
set -euo pipefail
cuzk=$1
# shellcheck source=tests/lib/waits.sh
source "$(dirname "$0")/../../tests/lib/waits.sh"
daemon_scratch
mkdir "$dir/downloads"
late="$dir/downloads/late.zkey"
cat > "$dir/cuzk.toml" <<TOML
[server]
listen = "unix://$dir/run/cuzk.sock"
status_listen = "127.0.0.1:0"
[cache]
dir = "$dir/cache"
[demo]
lg_domain = 9
[pipeline]
prover_threads = 2
[[circuits]]
id = "late"
zkey = "$late"
TOML
addr="unix://$dir/run/cuzk.sock"
# The state of circuit "late" in `cuzk status --json`.
late_state() {
  "$cuzk" status --addr "$addr" --json |
    python3 -c 'import json, sys; print(next(c["state"] for c in json.load(sys.stdin)["circuits"] if c["circuit_id"] == "late"))'
}
# `cuzk preload late` must fail (exit non-zero) naming the key file.
preload_fails() {
  local rc=0
  "$cuzk" preload late --addr "$addr" > /dev/null 2> "$dir/preload.err" || rc=$?
  [[ $rc -ne 0 ]] || { echo "preload of a broken circuit succeeded ($1)"; exit 1; }
  grep -q "FAILED_PRECONDITION.*circuit \"late\" failed to load.*$late" "$dir/preload.err" ||
    { echo "preload ($1): exit $rc"; cat "$dir/preload.err"; exit 1; }
}
proves() {
  "$cuzk" prove --addr "$addr" --circuit "$1" --wtns "$dir/w.wtns" --proof "$dir/$1.json" --vk "$dir/vk.json" \
    > "$dir/prove.out" 2>&1 || { echo "prove $1 failed"; cat "$dir/prove.out"; exit 1; }
  grep -q "verified 1 proof(s)" "$dir/prove.out"
}

"$cuzk" serve --config "$dir/cuzk.toml" > "$dir/serve.out" 2> "$dir/serve.err" &
pid=$!
wait_for grep -q "serving on" "$dir/serve.out" 2>/dev/null || true
grep -q "serving on.*failed to load.*late" "$dir/serve.out" || { cat "$dir/serve.out" "$dir/serve.err"; exit 1; }
[[ $(late_state) == failed ]]
"$cuzk" demo-witness --config "$dir/cuzk.toml" --out "$dir/w.wtns" --vk "$dir/vk.json"
proves demo

preload_fails "missing"
grep -q "No such file" "$dir/preload.err" || { cat "$dir/preload.err"; exit 1; }
# Half downloaded: a few bytes that are no key.
printf 'zkey\001\000' > "$late"
sleep 1.1  # past the retry interval
preload_fails "cut short"
! grep -q "No such file" "$dir/preload.err" || { echo "the old reason was answered"; cat "$dir/preload.err"; exit 1; }
[[ $(late_state) == failed ]]
proves demo
# The download completes (the same key as the demo circuit's).
cp "$(ls "$dir"/cache/*.zkey | head -1)" "$late.part"
mv "$late.part" "$late"
sleep 1.1
"$cuzk" preload late --addr "$addr" > "$dir/preload.out" 2>&1 || { echo "preload after the download failed"; cat "$dir/preload.out"; exit 1; }
grep -q "loaded in" "$dir/preload.out"
[[ $(late_state) == ready ]] || { echo "late is $(late_state)"; exit 1; }
grep -q 'circuit "late" failed to load before; trying again' "$dir/serve.err"
proves late
proves demo

kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
pid=""
[[ $rc -eq 0 ]] || { echo "serve exited $rc"; exit 1; }
echo "circuit retry cli test: OK"
