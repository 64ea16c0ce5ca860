# A scripted tutor session under valgrind (memcheck) on the plain build: the home
# screen, a lesson stepped through,
# the lab (typing English and Chinese, layers, heads, the causal mask, every head, a
# resize to 40×12), the self-test (Q3 wrong, then right), quit. No invalid access, no
# uninitialised value, no leak (definite, indirect or possible; the screen is released
# with delscreen, so ncurses keeps nothing either). OPENBLAS_NUM_THREADS=1 as in
# tests/cli/valgrind.sh, and --trace-children=yes as there.
. tests/lib.sh
. tests/e2e/lib/tmux.sh
if ! command -v valgrind >/dev/null 2>&1; then not_ok "valgrind installed (scripts/deps.sh)"; exit 0; fi
vlog="$E2E_TMP/vg.log"
wrap="$E2E_TMP/vg-tutor"
cat > "$wrap" <<WRAP
#!/bin/sh
exec valgrind -q --trace-children=yes --leak-check=full --show-leak-kinds=definite,indirect,possible \\
  --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 \\
  --log-file="$vlog" "$AT_BIN" "\$@"
WRAP
chmod +x "$wrap"
AT_BIN="$wrap"
T=60   # valgrind runs the tutor some 20–50 times slower

tutor_start 100 30 OPENBLAS_NUM_THREADS=1 -- --lang en
expect_screen "valgrind tutor: the home screen" "? help" $T
keys Enter                          # the first lesson (or Continue)
expect_line "valgrind tutor: a lesson opens" '[0-9]+/[0-9]+' $T
i=0
while [ $i -lt 12 ]; do keys Right; i=$((i + 1)); done
wait_line '[0-9]+/[0-9]+' $T >/dev/null
keys q
expect_screen "valgrind tutor: back home" "? help" $T
keys L                              # the lab from home
if ! wait_for "Attention lab" 5; then keys l; fi
expect_screen "valgrind tutor: the lab" "Attention lab" $T
keys j j j j j j j
keys ']' ',' m s a
expect_screen "valgrind tutor: every head" "head" $T
keys a m s i C-u
type_text "小明今天没来学校，因为他生病了。"
keys Tab
expect_screen "valgrind tutor: a Chinese sentence in the lab" "16 tokens" $T
resize 40 12
wait_for "tokens" $T >/dev/null
resize 100 30
keys q
expect_screen "valgrind tutor: home again" "? help" $T
keys t
expect_screen "valgrind tutor: the self-test" "question 1 of" $T
i=0
while [ $i -lt 8 ] && ! wait_for "Question q3" 5; do keys Right; i=$((i + 1)); done
keys a
type_text "0.12 0.21"
keys Enter
expect_screen "valgrind tutor: a wrong answer graded" "Not right yet" $T
keys a C-u
type_text "0.14 0.17"
keys Enter
expect_screen "valgrind tutor: the right answer graded" "Right" $T
keys Escape q q
if wait_exit 120; then
  expect_eq "valgrind tutor: exit status 0 (99 = a valgrind error)" 0 "$DEAD_STATUS"
else
  not_ok "valgrind tutor: the tutor quits" "$(screen)"
fi
if [ ! -f "$vlog" ]; then
  not_ok "valgrind tutor: nothing in valgrind's log" "valgrind wrote no log: did it run?"
elif [ -s "$vlog" ]; then
  not_ok "valgrind tutor: nothing in valgrind's log" "$(head -40 "$vlog")"
else
  ok "valgrind tutor: nothing in valgrind's log"
fi
