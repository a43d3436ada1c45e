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
