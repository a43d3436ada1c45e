#!/usr/bin/env bash
# Runs the example commands of a document as a reader would paste them.
#
# Marker: a fenced block that opens with ```sh on the line right after an HTML
# comment `<!-- test -->` (invisible on the rendered page) is runnable. Every
# such block of the document runs, in order, in one bash session (variables
# and background jobs carry over from block to block), under `set -e`, in a
# scratch directory:
#   - `cuzk` is the binary under test (a shell function);
#   - every "/tmp/" in a block is rewritten to the scratch directory, so the
#     examples keep their short paths and two runs never meet;
#   - background jobs (a daemon a block started) are stopped at the end, and
#     waited for: a job is a subshell running the `cuzk` function, so the
#     binary beneath it is stopped first (killing the subshell alone left
#     the daemon running, its keys in memory, after the test had passed).
# Blocks without the marker (sudo, systemctl, placeholders) are left alone.
#
# Usage: docs_test.sh path/to/cuzk DOC.md [cache-dir]
# With a cache directory, "/tmp/cuzk-dev" (the examples' daemon cache) is that
# directory, so that development keys made by an earlier run are reused.
set -euo pipefail

cuzk_bin=$(realpath "$1")
doc=$(realpath "$2")
cache=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The marked blocks, "/tmp/" made the scratch directory's.
script=$work/doc.sh
awk -v tmp="$work/" '
  /^<!-- test -->[[:space:]]*$/ { marked = 1; next }
  marked && /^```sh[[:space:]]*$/ { inside = 1; marked = 0; blocks++; print "# block " blocks; next }
  inside && /^```[[:space:]]*$/ { inside = 0; next }
  inside { gsub("/tmp/", tmp); print; next }
  { marked = 0 }
  END { if (blocks == 0) exit 1 }
' "$doc" >"$script" || { echo "FAILED: no <!-- test --> block in $doc" >&2; exit 1; }
if [[ -n "$cache" ]]; then
  mkdir -p "$cache"
  ln -s "$cache" "$work/cuzk-dev"
fi

cd "$work"
set +e
bash -e -o pipefail -c '
  cuzk() { "'"$cuzk_bin"'" "$@"; }
  export -f cuzk
  trap '\''for j in $(jobs -p); do pkill -P "$j" || true; kill "$j" || true; done 2>/dev/null; wait'\'' EXIT
  trap '\''echo "FAILED: line $LINENO of the extracted blocks: $BASH_COMMAND" >&2'\'' ERR
  source "'"$script"'"
' >"$work/out" 2>&1
rc=$?
set -e
if [[ $rc != 0 ]]; then
  cat "$work/out" >&2
  echo "--- the blocks as run:" >&2
  cat -n "$script" >&2
  echo "docs test: FAILED ($doc, exit $rc)"
  exit 1
fi
echo "docs test: OK ($doc, $(grep -c '^# block' "$script") blocks)"
