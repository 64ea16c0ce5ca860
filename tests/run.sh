#!/bin/sh
# Runs every suite: unit tests (plain and under ASan+UBSan), command-line tests,
# end-to-end terminal tests. Each suite prints TAP lines ("ok …" / "not ok …");
# this script counts them and ends with the one line "N passed, N failed" ("ok … # SKIP"
# lines are listed and counted apart, not as passed).
cd "$(dirname "$0")/.." || exit 2
export LC_ALL=C.UTF-8 ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1
export CMOCKA_MESSAGE_OUTPUT=TAP OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
# OpenBLAS's core: tests that depend on it set or remove OPENBLAS_CORETYPE themselves
# (a machine may export one); OpenBLAS's messages and the start-up's test hooks stay off.
unset OPENBLAS_VERBOSE ATTN_TUTOR_BLAS_TEST ATTN_TUTOR_BLAS_CORE
export AT_BIN="$PWD/build/attn-tutor" AT_BIN_ASAN="$PWD/build/asan/attn-tutor"
# Lessons an instructor installed (~/.local/share/attn-tutor/lessons, XDG_DATA_DIRS)
# must not change what the tests see: point both at an empty folder.
xdg=$(mktemp -d) && trap 'rm -rf "$xdg"' EXIT
export XDG_DATA_HOME="$xdg" XDG_DATA_DIRS="$xdg"
log=build/test-log.txt
: > "$log"
passed=0 failed=0 skipped=0
suite() { # name, command...
  name=$1; shift
  out=$("$@" 2>&1); rc=$?
  printf '%s\n' "$out" >> "$log"
  p=$(printf '%s\n' "$out" | grep '^ok ' | grep -vc '# SKIP')
  s=$(printf '%s\n' "$out" | grep '^ok ' | grep -c '# SKIP')
  f=$(printf '%s\n' "$out" | grep -c '^not ok ')
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    f=1; printf 'not ok - %s exited with status %s\n' "$name" "$rc"
    printf '%s\n' "$out" | tail -20
  fi
  printf '%s\n' "$out" | grep '^not ok ' | sed "s|^|$name: |"
  [ "$f" -gt 0 ] && printf '%s\n' "$out" | grep -v '^ok ' | grep -v '^#' | head -40
  printf '%-40s %4d passed, %d failed%s\n' "$name" "$p" "$f" "$([ "$s" -gt 0 ] && echo ", $s skipped")"
  printf '%s\n' "$out" | grep '^ok .*# SKIP' | sed "s|^|$name: |"
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
}
for t in build/rel/tests/test_*; do [ -x "$t" ] && suite "unit/$(basename "$t")" "$t"; done
for t in build/asan/tests/test_*; do [ -x "$t" ] && suite "asan/$(basename "$t")" "$t"; done
for t in tests/cli/*.sh; do [ -f "$t" ] && suite "cli/$(basename "$t" .sh)" sh "$t"; done
for t in tests/e2e/*.sh; do [ -f "$t" ] && suite "e2e/$(basename "$t" .sh)" sh "$t"; done
[ "$skipped" -gt 0 ] && echo "($skipped skipped: not counted as passed)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
