#!/usr/bin/env bash
# `cuzk serve` as a process: the client commands against it, SIGHUP ignored,
# a graceful SIGTERM with a job in flight (exit 0, the job finished), config
# errors naming their key, file and line, and what a client meets when there
# is no daemon or it may not connect.   serve_cli_test.sh path/to/cuzk
set -euo pipefail
cuzk=$1
# shellcheck source=tests/lib/waits.sh
source "$(dirname "$0")/../../tests/lib/waits.sh"
daemon_scratch
cat > "$dir/cuzk.toml" <<TOML
[server]
listen = "unix://$dir/run/cuzk.sock"
status_listen = "127.0.0.1:0"
shutdown_grace_ms = 120000
[cache]
dir = "$dir/cache"
[demo]
lg_domain = 9
[pipeline]
prover_threads = 2
TOML
addr="unix://$dir/run/cuzk.sock"

"$cuzk" serve --config "$dir/cuzk.toml" > "$dir/serve.out" 2> "$dir/serve.err" &
pid=$!
wait_for grep -q "serving on" "$dir/serve.out" 2>/dev/null || true
grep -q "serving on" "$dir/serve.out" || { cat "$dir/serve.err"; exit 1; }

"$cuzk" demo-witness --config "$dir/cuzk.toml" --out "$dir/w.wtns" --vk "$dir/vk.json"

# The log says which binary read which file.
grep -qE "cuzk [0-9.]+ \(.*\) starting, pid $pid; config $dir/cuzk.toml\$" "$dir/serve.err" ||
  { echo "no version and config path in the log:"; head -3 "$dir/serve.err"; exit 1; }
# SIGHUP (a closed terminal, a `kill -HUP` meant as reload) does not end the
# daemon: it says so and goes on serving.
kill -HUP "$pid"
wait_for grep -q "received SIGHUP; ignored" "$dir/serve.err"
kill -0 "$pid" 2>/dev/null || { echo "SIGHUP ended the daemon"; exit 1; }
prints "^  demo " "$cuzk" status --addr "$addr"

# A second daemon on a port the first one holds fails to start (no port sharing).
http_port=$(sed -n 's|.*status http://127.0.0.1:\([0-9]*\).*|\1|p;T;q' "$dir/serve.out")  # the first line naming it
[[ -n $http_port ]] || { echo "no status port in: $(cat "$dir/serve.out")"; exit 1; }
sed -e "s|unix://$dir/run/cuzk.sock|unix://$dir/run2.sock|" -e "s|127.0.0.1:0|127.0.0.1:$http_port|" \
  "$dir/cuzk.toml" > "$dir/clash_http.toml"
if "$cuzk" serve --config "$dir/clash_http.toml" > /dev/null 2> "$dir/clash.err"; then
  echo "a second daemon shared the status port"; exit 1; fi
grep -q "cannot listen for HTTP" "$dir/clash.err"
sed -e "s|unix://$dir/run/cuzk.sock|127.0.0.1:$http_port|" -e 's|status_listen = .*|status_listen = ""|' \
  "$dir/cuzk.toml" > "$dir/clash_grpc.toml"
if "$cuzk" serve --config "$dir/clash_grpc.toml" > /dev/null 2> "$dir/clash.err"; then
  echo "a second daemon listened on a port in use"; exit 1; fi
grep -q "cannot listen for gRPC" "$dir/clash.err"
# ... at once, before any circuit is made ready: here a PoRep development key,
# which would take minutes to make, is never started.
sed -e "s|$dir/cache|$dir/cache-slow|" "$dir/clash_http.toml" > "$dir/clash_slow.toml"
printf '[[circuits]]\nid = "porep-2k"\nfilecoin = "porep"\nsector_size = "2KiB"\ndev_seed = 9\n' >> "$dir/clash_slow.toml"
started=$SECONDS
rc=0
timeout 120 "$cuzk" serve --config "$dir/clash_slow.toml" > /dev/null 2> "$dir/clash.err" || rc=$?
[[ $rc -eq 1 ]] || { echo "a port conflict with a slow circuit: exit $rc"; cat "$dir/clash.err"; exit 1; }
(( SECONDS - started < 20 )) || { echo "the port conflict was reported after $((SECONDS - started)) s"; exit 1; }
grep -q "cannot listen for HTTP" "$dir/clash.err"
[[ ! -e "$dir/cache-slow/porep-2KiB.cuzkr1cs" ]] || { echo "the circuit was synthesized first"; exit 1; }
"$cuzk" prove --addr "$addr" --circuit demo --wtns "$dir/w.wtns" --proof "$dir/proof.json" \
  --public "$dir/public.json" --vk "$dir/vk.json" | tee "$dir/prove.out"
grep -q "verified 1 proof(s)" "$dir/prove.out"
grep -q '"pi_a"' "$dir/proof.json"
prints "verified" "$cuzk" prove --local --config "$dir/cuzk.toml" --circuit demo --wtns "$dir/w.wtns" --vk "$dir/vk.json"
prints "^  demo +HOT " "$cuzk" status --addr "$addr"
prints "cuzk_proofs_completed_total" "$cuzk" status --addr "$addr" --metrics
prints "evicted" "$cuzk" evict demo --addr "$addr"
prints "loaded in" "$cuzk" preload demo --addr "$addr"
prints "proofs/s" "$cuzk" bench batch --addr "$addr" --wtns "$dir/w.wtns" -c 4 -j 2 --json "$dir/bench.json"
grep -q '"proofs":4' "$dir/bench.json"
if "$cuzk" cancel job-404 --addr "$addr" 2>/dev/null; then echo "cancel of an unknown job succeeded"; exit 1; fi
prints "CPU backend, 2 threads" "$cuzk" status --addr "$addr"  # pipeline.prover_threads, not the core count
job=$(sed -n 's/^\(job-[a-z0-9]*-[0-9]*\): .*/\1/p;T;q' "$dir/prove.out")
prints "already finished keeps its result" "$cuzk" cancel "$job" --addr "$addr"

# Outputs that cannot work are refused before proving, and nothing is written:
# a snarkjs proof.json for a two-witness job (exit 2, naming the way out) ...
rc=0
"$cuzk" prove --addr "$addr" --circuit demo --wtns "$dir/w.wtns" --extra-wtns "$dir/w.wtns" \
  --proof "$dir/two.json" 2> "$dir/two.err" || rc=$?
[[ $rc -eq 2 ]] || { echo "two proofs into proof.json: exit $rc"; exit 1; }
grep -q "not ending in .json" "$dir/two.err"
[[ ! -e "$dir/two.json" ]] || { echo "two.json written"; exit 1; }
# ... which the binary form takes: two 192-byte proofs, both checked with --vk.
prints "verified 2 proof\(s\)" "$cuzk" prove --addr "$addr" --circuit demo --wtns "$dir/w.wtns" \
  --extra-wtns "$dir/w.wtns" --proof "$dir/two.bin" --vk "$dir/vk.json"
[[ $(stat -c %s "$dir/two.bin") -eq 384 ]] || { echo "two.bin is not two proofs"; exit 1; }
# A --vk that cannot be read (alpha's x given one more digit: not below p) fails before any
# file is written.
sed -E '/"vk_alpha_1"/{n;s/([0-9])"/\1\1"/}' "$dir/vk.json" > "$dir/badvk.json"
! cmp -s "$dir/vk.json" "$dir/badvk.json" || { echo "vk not tampered"; exit 1; }
if "$cuzk" prove --addr "$addr" --circuit demo --wtns "$dir/w.wtns" --proof "$dir/bad.json" --public "$dir/bad.pub.json" \
  --vk "$dir/badvk.json" 2> /dev/null; then echo "an unreadable --vk was accepted"; exit 1; fi
[[ ! -e "$dir/bad.json" && ! -e "$dir/bad.pub.json" ]] || { echo "outputs written before the --vk check"; exit 1; }
# Options of the other path are refused, not ignored.
rc=0
"$cuzk" prove --zkey "$dir/none.zkey" --wtns "$dir/w.wtns" --proof "$dir/k.json" --vk "$dir/vk.json" 2> "$dir/stray.err" || rc=$?
[[ $rc -eq 2 ]] && grep -q -- "--vk belongs to the daemon path" "$dir/stray.err" || { echo "stray --vk: exit $rc"; exit 1; }
rc=0
"$cuzk" prove --addr "$addr" --circuit demo --zkey "$dir/none.zkey" --wtns "$dir/w.wtns" 2> "$dir/stray.err" || rc=$?
[[ $rc -eq 2 ]] && grep -q -- "--zkey belongs to proving from key files" "$dir/stray.err" || { echo "stray --zkey: exit $rc"; exit 1; }

# SIGTERM with a multi-partition job in flight: it finishes, the daemon exits 0.
"$cuzk" prove --addr "$addr" --circuit demo --wtns "$dir/w.wtns" --extra-wtns "$dir/w.wtns" --extra-wtns "$dir/w.wtns" \
  --extra-wtns "$dir/w.wtns" --extra-wtns "$dir/w.wtns" --extra-wtns "$dir/w.wtns" > "$dir/inflight.out" 2>&1 &
client=$!
# Until the job shows in the status (or has already ended, on a fast machine).
in_flight_or_done() { prints "queue GROTH16_CIRCUIT" "$cuzk" status --addr "$addr" || ! kill -0 "$client" 2>/dev/null; }
wait_for in_flight_or_done
kill -TERM "$pid"
wait "$client"
grep -q "6 proof(s)" "$dir/inflight.out"
rc=0
wait "$pid" || rc=$?
pid=""
[[ $rc -eq 0 ]] || { echo "serve exited $rc"; exit 1; }
[[ ! -e "$dir/run/cuzk.sock" ]] || { echo "socket left behind"; exit 1; }

# An invalid value is rejected at startup, naming the key.
printf '[pipeline]\nworkers_per_device = 0\n' > "$dir/bad.toml"
if "$cuzk" serve --config "$dir/bad.toml" 2> "$dir/bad.err"; then echo "bad config accepted"; exit 1; fi
grep -q "pipeline.workers_per_device" "$dir/bad.err"
# --check-config opens the circuits' files as serve would (exit 2, naming the file).
printf '[[circuits]]\nid = "gone"\nzkey = "%s/missing.zkey"\n' "$dir" > "$dir/gone.toml"
if "$cuzk" serve --config "$dir/gone.toml" --check-config > /dev/null 2> "$dir/gone.err"; then
  echo "check-config accepted a missing zkey"; exit 1; fi
grep -q "missing.zkey" "$dir/gone.err"
grep -q 'a start would serve the other circuits and load "gone" again at a preload' "$dir/gone.err"
# A misspelt key is an error with what was meant, in --check-config too (exit 2).
printf '[memory]\nbudget = "8GiB"\n[pipeline]\ndevice = "cpu"\n' > "$dir/typo.toml"
rc=0
"$cuzk" serve --config "$dir/typo.toml" --check-config > "$dir/typo.out" 2> "$dir/typo.err" || rc=$?
[[ $rc -eq 2 ]] || { echo "check-config of a misspelt key: exit $rc"; cat "$dir/typo.out"; exit 1; }
grep -q "did you mean memory.total_budget?" "$dir/typo.err"
grep -q "did you mean pipeline.devices?" "$dir/typo.err"
# --check-config writes nothing: a Filecoin circuit with a missing parameter file
# is reported without its rows being synthesized into the cache.
printf '[cache]\ndir = "%s/fccache"\n[[circuits]]\nid = "p"\nfilecoin = "porep"\nsector_size = "2KiB"\nparams = "%s/none.params"\n' \
  "$dir" "$dir" > "$dir/fc.toml"
if "$cuzk" serve --config "$dir/fc.toml" --check-config > /dev/null 2> "$dir/fc.err"; then
  echo "check-config accepted a missing params file"; exit 1; fi
grep -q "none.params" "$dir/fc.err"
[[ ! -e "$dir/fccache" ]] || { echo "check-config wrote into the cache: $(ls -R "$dir/fccache")"; exit 1; }
# --check-config refuses what the start refuses, before the start: an unknown
# device, TLS files that cannot be read, a socket group this system lacks.
for bad in 'pipeline]\ndevices = "gpu0"' 'server]\ntls_cert = "/nonexistent/c.pem"\ntls_key = "/nonexistent/k.pem"' \
  'server]\nsocket_group = "no-such-group-cuzk"'; do
  printf "[$bad\n" > "$dir/start.toml"
  rc=0
  "$cuzk" serve --config "$dir/start.toml" --check-config > /dev/null 2> "$dir/start.err" || rc=$?
  [[ $rc -eq 2 ]] || { echo "check-config of [$bad: exit $rc"; exit 1; }
  grep -qE "pipeline.devices|server.tls_cert|server.socket_group" "$dir/start.err" || { cat "$dir/start.err"; exit 1; }
done
# A value error names the file and the line.
printf '[server]\nlog_level = "info"\n\n[pipeline]\nworkers_per_device = 0\n' > "$dir/line.toml"
rc=0
"$cuzk" serve --config "$dir/line.toml" --check-config > /dev/null 2> "$dir/line.err" || rc=$?
[[ $rc -eq 2 ]] && grep -q "$dir/line.toml:5: pipeline.workers_per_device" "$dir/line.err" ||
  { echo "no file and line: exit $rc"; cat "$dir/line.err"; exit 1; }
# A config file that is not there is named with the reason.
if "$cuzk" serve --config "$dir/none.toml" --check-config > /dev/null 2> "$dir/none.err"; then
  echo "check-config accepted a missing file"; exit 1; fi
grep -q "$dir/none.toml: No such file or directory" "$dir/none.err"
# A client meeting no daemon is told at once what it found: no socket, or a
# socket nobody accepts on (the daemon above has stopped and removed its own).
started=$SECONDS
rc=0
"$cuzk" status --addr "$addr" 2> "$dir/nodaemon.err" || rc=$?
[[ $rc -eq 1 ]] && grep -q "cannot connect to cuzk at $addr: no socket there" "$dir/nodaemon.err" ||
  { echo "no daemon: exit $rc"; cat "$dir/nodaemon.err"; exit 1; }
(( SECONDS - started < 4 )) || { echo "no daemon was reported after $((SECONDS - started)) s"; exit 1; }
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$dir/run/cuzk.sock"
rc=0
"$cuzk" status --addr "$addr" 2> "$dir/stale.err" || rc=$?
[[ $rc -eq 1 ]] && grep -q "nothing accepts connections on the socket" "$dir/stale.err" ||
  { echo "a stale socket: exit $rc"; cat "$dir/stale.err"; exit 1; }
# A socket that appears within a second (a daemon binding it while its
# script starts the client) is waited for, not reported missing.
# The listener is started and ready first, and binds 0.2 s after the go file
# appears, just before the client starts (on a loaded machine the start of a
# python process alone can take longer than the client's second).
rm -f "$dir/run/cuzk.sock" "$dir/go" "$dir/ready"
python3 -c '
import os, socket, sys, time
open(sys.argv[2] + "/ready", "w").close()
while not os.path.exists(sys.argv[2] + "/go"): time.sleep(0.01)
time.sleep(0.2); s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(); time.sleep(20)' \
  "$dir/run/cuzk.sock" "$dir" &
late=$!
wait_for test -e "$dir/ready"
touch "$dir/go"
rc=0
"$cuzk" status --addr "$addr" 2> "$dir/late.err" || rc=$?
kill $late 2> /dev/null; wait $late 2> /dev/null || true
[[ $rc -eq 1 ]] && ! grep -q "no socket there" "$dir/late.err" && grep -q "cannot connect to cuzk at $addr" "$dir/late.err" ||
  { echo "a socket bound 0.2 s late: exit $rc"; cat "$dir/late.err"; exit 1; }
# A daemon that finds a stale socket (the listener above was killed) replaces
# it, and says so.
[[ -S $dir/run/cuzk.sock ]] || { echo "the killed listener left no socket"; exit 1; }
"$cuzk" serve --config "$dir/cuzk.toml" > "$dir/serve2.out" 2> "$dir/serve2.err" &
pid=$!
wait_for grep -q "serving on" "$dir/serve2.out" 2>/dev/null || true
grep -q "removed a stale socket at $dir/run/cuzk.sock" "$dir/serve2.err" ||
  { echo "the stale socket's replacement was not logged:"; cat "$dir/serve2.err"; exit 1; }
prints "^  demo " "$cuzk" status --addr "$addr"
kill -TERM "$pid"
wait "$pid" || { echo "the second daemon did not stop cleanly"; exit 1; }
pid=""
# A user who may not use the socket is told so, with its owner, group and mode
# (as root, through the unprivileged user nobody).
if [[ $(id -u) -eq 0 ]] && command -v runuser > /dev/null && id nobody > /dev/null 2>&1; then
  mkdir -m 0755 "$dir/shared"
  chmod 0711 "$dir"
  python3 -c 'import os, socket, sys; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); os.chmod(sys.argv[1], 0o600); s.listen(); sys.stdin.read()' \
    "$dir/shared/cuzk.sock" < <(sleep 30) &
  listener=$!
  wait_for test -S "$dir/shared/cuzk.sock"
  rc=0
  runuser -u nobody -- "$cuzk" status --addr "unix://$dir/shared/cuzk.sock" 2> "$dir/denied.err" || rc=$?
  kill "$listener" 2>/dev/null || true
  [[ $rc -eq 1 ]] && grep -q "permission denied: the socket belongs to root, group root, mode 0600" "$dir/denied.err" ||
    { echo "permission denied: exit $rc"; cat "$dir/denied.err"; exit 1; }
fi
# A directory is not a config file.
if "$cuzk" serve --config "$dir" --check-config > /dev/null 2> "$dir/dir.err"; then
  echo "check-config accepted a directory"; exit 1; fi
grep -q "is a directory" "$dir/dir.err"
echo "serve cli test: OK"
