#!/usr/bin/env bash
# The status page (GET / on the status port) in headless Chromium against a
# running daemon: after its script has polled /status, the page shows the
# registered circuit with its tier, the device (busy fraction, host memory,
# no resident keys or fallbacks on the CPU) and its workers, the queue by
# priority, a completed job, a running job's partitions as stage bars, and a
# failed job with its error.   status_page_test.sh path/to/cuzk WORKDIR
# Skips (exit 77) only when no Chromium is installed (scripts/setup.sh --test
# installs Debian's chromium).
set -euo pipefail
cuzk=$(realpath "$1")
work=$2
browser=""
for b in chromium chromium-browser google-chrome; do
  command -v "$b" >/dev/null && { browser=$b; break; }
done
if [[ -z $browser ]]; then
  echo "SKIP: no chromium installed (scripts/setup.sh --test installs Debian's chromium)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
pid=""
cleanup() { [[ -n $pid ]] && kill "$pid" 2>/dev/null; wait 2>/dev/null || true; }
trap cleanup EXIT
# shellcheck source=tests/lib/waits.sh
source "$(dirname "$0")/../lib/waits.sh"
cat > "$work/cuzk.toml" <<TOML
[server]
listen = "unix://$work/cuzk.sock"
status_listen = "127.0.0.1:0"
shutdown_grace_ms = 0
[cache]
dir = "$work/cache"
[demo]
lg_domain = 12
[pipeline]
workers_per_device = 1
TOML
addr="unix://$work/cuzk.sock"
"$cuzk" serve --config "$work/cuzk.toml" > "$work/serve.out" 2> "$work/serve.err" &
pid=$!
wait_for grep -q "serving on" "$work/serve.out" 2>/dev/null || true
url=$(grep -o "http://127.0.0.1:[0-9]*" "$work/serve.out" | head -1)
[[ -n $url ]] || { cat "$work/serve.err"; exit 1; }

"$cuzk" demo-witness --config "$work/cuzk.toml" --out "$work/w.wtns" >/dev/null
# A completed job, a failed one (its last internal value changed), and a long
# LOW job still running when the page is read.
"$cuzk" prove --addr "$addr" --circuit demo --wtns "$work/w.wtns" 2> "$work/ok.err" >/dev/null
ok_job=$(grep -o "job-[a-z0-9]*-[0-9]*" "$work/ok.err" | head -1)
cp "$work/w.wtns" "$work/bad.wtns"
size=$(stat -c %s "$work/bad.wtns")
# Xor the value's low byte (an overwrite could leave it as it was).
byte=$(od -An -tu1 -j $((size - 32)) -N1 "$work/bad.wtns" | tr -d ' ')
printf "\\x$(printf '%02x' $((byte ^ 5)))" | dd of="$work/bad.wtns" bs=1 seek=$((size - 32)) conv=notrunc status=none
if "$cuzk" prove --addr "$addr" --circuit demo --wtns "$work/bad.wtns" 2> "$work/bad.err" >/dev/null; then
  echo "FAIL: a witness that does not satisfy the circuit was proved"; exit 1; fi
bad_job=$(grep -o "job-[a-z0-9]*-[0-9]*" "$work/bad.err" | head -1)
extra=()
# 255 partitions of 2^12 on one worker: seconds even on a fast machine.
for _ in $(seq 254); do extra+=(--extra-wtns "$work/w.wtns"); done
"$cuzk" prove --addr "$addr" --circuit demo --priority low --wtns "$work/w.wtns" "${extra[@]}" --proof "$work/long.bin" \
  2> "$work/long.err" >/dev/null &
long_pid=$!
wait_for grep -q "submitted" "$work/long.err" 2>/dev/null || true
long_job=$(grep -o "job-[a-z0-9]*-[0-9]*" "$work/long.err" | head -1)
port=${url##*:}
# GET PATH by hand (bash's /dev/tcp): the reply on stdout.
http_get() {
  exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
  printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$1" >&3
  cat <&3 || true
  exec 3<&-
}
# The long job proving, waited for (not a second's sleep): a partition of it
# done (a stage bar with a proving stretch) and the worker busy with it.
long_proving() {
  local s
  s=$(http_get /status) || return 1
  grep -qzP "\"job_id\": \"$long_job\"[^\\]]*?\"state\": \"done\"" <<< "$s" &&
    grep -qzP "\"job_id\": \"$long_job\",\\s*\"name\": \"[^\"]*\",\\s*\"state\": \"busy\"" <<< "$s"
}
wait_for long_proving || { echo "FAIL: the long job $long_job was not seen proving"; http_get /status | head -c 3000; exit 1; }

# GET / by hand: the page itself, as HTML.
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
reply=$(cat <&3 || true)
exec 3<&-
grep -q "^Content-Type: text/html" <<< "${reply//$'\r'/}" || { echo "FAIL: GET / is not HTML: ${reply:0:300}"; exit 1; }
grep -q "<!DOCTYPE html>" <<< "$reply" || { echo "FAIL: GET / is not the page"; exit 1; }
"$browser" --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
  --disable-sync --no-first-run --user-data-dir="$work/profile" --virtual-time-budget=4000 --dump-dom "$url/" \
  > "$work/dom.html" 2> "$work/browser.err"
kill "$long_pid" 2>/dev/null || true

failed=0
expect() {  # expect "what" PERL-REGEX: the rendered page must match
  if grep -qP "$2" "$work/dom.html"; then echo "  ok    $1"; else echo "  FAIL  $1 (/$2/)"; failed=$((failed + 1)); fi
}
expect_not() {  # expect_not "what" PERL-REGEX: the rendered page must not match
  if grep -qP "$2" "$work/dom.html"; then echo "  FAIL  $1 (/$2/ found)"; failed=$((failed + 1)); else echo "  ok    $1"; fi
}
expect "the script reached the daemon" '<span class="pill busy" id="conn">live</span>'
expect "the demo circuit with its tier" '<tr data-key="demo"><td>demo</td><td><span class="pill tier-HOT">HOT</span>'
expect "the device" '<tr data-device="cpu[0-9]*">'
expect "the device with its busy fraction and host memory (the CPU has no VRAM)" \
  '<tr data-device="cpu[0-9]*"><td><b>cpu[0-9]*</b></td><td>1 worker\(s\)</td><td><span class="pill busy">busy</span></td><td></td><td data-busy-fraction="(?!0\.0000)[01]\.[0-9]{4}">busy [0-9.]+%</td><td>host memory [0-9.]+ [KMG]i?B</td></tr>'
expect_not "no key resident on the CPU device" 'data-device-keys='
expect_not "no fallbacks on the CPU device" 'data-device-fallbacks='
expect_not "no VRAM meter" 'data-vram='
expect "its worker, busy with the long job" "<tr data-worker=\"cpu[0-9]*/w0\">.*?busy</span></td><td>$long_job<"
expect "the queue by priority" '<tr data-priority="CRITICAL">.*<tr data-priority="HIGH">.*<tr data-priority="NORMAL">.*<tr data-priority="LOW"><td>LOW</td><td>[01]</td><td>[01]</td>'
expect "the completed job" "<tr data-job=\"$ok_job\">.*?COMPLETED"
expect "the long job, not finished" "<tr data-job=\"$long_job\"><td>$long_job</td><td>demo</td><td>LOW</td><td><span class=\"pill busy\">(queued|preparing|waiting_worker|running|finalizing)<"
expect "its partitions as stage bars (the first 32)" "<div class=\"bar\" data-partition=\"31\""
expect "... and how many more" '\.\.\. 223 more'
expect "a stage bar with a proving stretch" '<span class="s-prove" style="width:[0-9.]+%">'
expect "the failed job with its error" "<tr data-failed-job=\"$bad_job\">.*?constraint [0-9]+ is not satisfied"
expect "the header counts" 'id="completed">[1-9]'
if [[ $failed -ne 0 ]]; then
  echo "--- page (first 4000 bytes)"; head -c 4000 "$work/dom.html"; echo; tail -5 "$work/browser.err"
  exit 1
fi
echo "status page test: OK"
