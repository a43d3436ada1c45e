#!/usr/bin/env bash
# cmake/GitRevision.cmake, the build step that names the revision in
# `cuzk version` and the benches' header lines: in a scratch repository it
# must write `git describe` of the tree, follow a new commit and an edit
# (-dirty) without a reconfigure, and leave the file untouched (same mtime)
# when nothing changed, so that a build recompiles nothing for it.
#   git_revision_test.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1 work=$2
rm -rf "$work" && mkdir -p "$work/repo" && cd "$work"
passed=0 failed=0
check() { local what=$1; shift; if "$@"; then passed=$((passed + 1)); echo "  ok    $what";
          else failed=$((failed + 1)); echo "  FAIL  $what"; fi; }
git=$(command -v git)
write() { cmake -DSOURCE_DIR="$work/repo" -DOUT="$work/rev.cc" -DGIT_EXECUTABLE="$git" -P "$src/cmake/GitRevision.cmake"; }
names() { grep -q "return \"$1\";" "$work/rev.cc"; }

write
check "outside a git checkout: unknown" names unknown
g() { git -C "$work/repo" -c user.name=t -c user.email=t@t "$@"; }
g init -q && echo a > repo/f && g add f && g commit -qm one
write
first=$(g describe --always --dirty --abbrev=12)
check "names the commit ($first)" names "$first"
touch -d '2001-01-01' rev.cc
write
check "unchanged revision: the file is not rewritten" test "$(stat -c %Y rev.cc)" = "$(date -d 2001-01-01 +%s)"
echo b > repo/f
write
check "an edit: -dirty" names "$first-dirty"
g commit -qam two
write
second=$(g describe --always --dirty --abbrev=12)
check "a new commit, no reconfigure ($second)" names "$second"
check "... which is not the first" test "$first" != "$second"
echo "git-revision: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
