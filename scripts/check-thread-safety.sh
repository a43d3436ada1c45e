#!/usr/bin/env bash
# Clang's thread-safety analysis over the code that carries the annotations
# (base/mutex.h: GUARDED_BY, REQUIRES, ...): base, engine and server
# sources, syntax only, warnings as errors. Under g++ the annotations are
# no-ops; this is where they are checked (scripts/test.sh runs it).
#   scripts/check-thread-safety.sh [BUILD_DIR (default: build)] [CLANG (default: clang++-16)]
set -euo pipefail
cd "$(dirname "$0")/.."
clang=${2:-clang++-16}
command -v "$clang" >/dev/null || { echo "check-thread-safety: $clang not found (apt-get install clang-16)"; exit 2; }
# The check must be able to fail: an unguarded write must be refused.
probe='#include "cuzk/base/mutex.h"
struct P { cuzk::Mutex mu; int x GUARDED_BY(mu) = 0; void f() { x++; } };'
if echo "$probe" | "$clang" -std=c++20 -fsyntax-only -Wthread-safety -Werror=thread-safety -Ibase/include -x c++ - \
     2>/dev/null; then
  echo "check-thread-safety: the analysis did not refuse an unguarded write; the annotations are not in effect"
  exit 1
fi
CHECK_CLANG_FLAGS="-Wthread-safety -Werror=thread-safety" \
CHECK_CLANG_FILTER="/(base|engine|server)/(src|include)/" \
  exec scripts/check-clang.sh "${1:-build}" "$clang"
