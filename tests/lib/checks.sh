# The checks the command-line test scripts count (sourced; the script's
# working directory holds the logs, log.1, log.2, ...):
#   run WANT_RC "description" command...   the exit status must be WANT_RC
#   says "description" PATTERN             the last command's output matches (grep -E)
#   lacks "description" PATTERN            ... and does not match
# $passed and $failed count them; a script ends with
#   echo "NAME: $passed passed, $failed failed"; [[ $failed -eq 0 ]]
passed=0
failed=0
step=0
last=""
run() {
  local want=$1 what=$2; shift 2
  step=$((step + 1)); last=log.$step
  local rc=0
  "$@" > "$last" 2>&1 || rc=$?
  if [[ $rc -eq $want ]]; then passed=$((passed + 1)); echo "  ok    $what"
  else failed=$((failed + 1)); echo "  FAIL  $what (exit $rc, want $want)"; sed 's/^/        /' "$last" | tail -8; fi
}
says() {
  if grep -qE -- "$2" "$last"; then passed=$((passed + 1)); echo "  ok    ... $1"
  else failed=$((failed + 1)); echo "  FAIL  ... $1 (no /$2/ in:)"; sed 's/^/        /' "$last" | tail -8; fi
}
lacks() {
  if grep -qE -- "$2" "$last"; then failed=$((failed + 1)); echo "  FAIL  ... $1 (/$2/ found)"
  else passed=$((passed + 1)); echo "  ok    ... $1"; fi
}
