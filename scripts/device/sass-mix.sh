#!/usr/bin/env bash
# Instruction mix of device functions, from the SASS in object files:
#   scripts/device/sass-mix.sh PATTERN FILE.o...
# For each function whose mangled name matches PATTERN: the instruction count
# and the most frequent opcodes (with their modifiers), so a change to the field
# arithmetic can be judged before it is timed.
set -uo pipefail
pattern=$1; shift
command -v cuobjdump > /dev/null || { echo "sass-mix: no cuobjdump"; exit 0; }
for f in "$@"; do
  cuobjdump -sass "$f" 2>/dev/null | awk -v pat="$pattern" '
    /Function : / { name = $3; next }
    /^[ \t]+\/\*[0-9a-f]+\*\/[ \t]+/ {
      if (name !~ pat) next
      op = $2; if (op ~ /^@/) op = $3
      sub(/;$/, "", op); print name "\t" op
    }'
done | sort | uniq -c | sort -k2,2 -k1,1nr | awk '
  { fn = $2; if (fn != cur) { if (cur != "") print total "\t" substr(cur, 1, 80) "\t" line; cur = fn; total = 0; line = ""; k = 0 }
    total += $1; if (k++ < 10) line = line " " $3 "=" $1 }
  END { if (cur != "") print total "\t" substr(cur, 1, 80) "\t" line }'
