# Waiting and matching helpers of the daemon test scripts (sourced).
#   wait_for command...      polls until the command succeeds; the 120 s bound
#                            only guards against a hang (a loaded machine makes
#                            a test slower, not failed)
#   prints PATTERN command...  whether the command succeeds and its output
#                            matches the extended regex. Not `cmd | grep -q`
#                            (nor `| grep > /dev/null`, which GNU grep treats
#                            alike): grep stops reading at the first match, a
#                            command that writes on dies of SIGPIPE, and
#                            pipefail then fails the line now and then.
wait_for() { local end=$((SECONDS + 120)); until "$@"; do ((SECONDS < end)) || return 1; sleep 0.05; done; }
prints() { local pattern=$1 out; shift; out=$("$@") && grep -qE -- "$pattern" <<< "$out"; }
#   daemon_scratch           a scratch folder in $dir and an empty $pid; on exit
#                            the daemon in $pid is killed and the folder removed
daemon_scratch() {
  dir=$(mktemp -d)
  pid=""
  trap '[[ -n $pid ]] && kill -9 "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
}
