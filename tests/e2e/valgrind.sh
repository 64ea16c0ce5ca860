# A scripted tutor session under valgrind (memcheck) on the plain build: the home
# screen, a lesson stepped through, the lab (typing English and Chinese, layers, heads,
# the causal mask, every head, a resize to 40×12 and back, one more undone while the
# tutor was stopped, then home with no character of the Chinese sentence left), the
# self-test (Q3 wrong, then right), quit. No invalid access, no uninitialised value, no
# leak (definite, indirect or possible; the screen is released with delscreen, so
# ncurses keeps nothing either). OPENBLAS_NUM_THREADS=1 as in tests/cli/valgrind.sh,
# and --trace-children=yes as there.
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
# valgrind runs the tutor some 20–50 times slower, more on a loaded machine
E2E_WAIT=180

tutor_start 100 30 OPENBLAS_NUM_THREADS=1 -- --lang en
expect_screen "valgrind tutor: the home screen" "Self-attention, step by step"
keys Enter                          # the first lesson (or Continue)
expect_line "valgrind tutor: a lesson opens" 'step 1/[0-9]+'
n=$(printf '%s\n' "$LINE" | sed 's|.*step 1/\([0-9]*\).*|\1|')
i=1
while [ $i -lt "$n" ]; do keys Right; i=$((i + 1)); done
expect_screen "valgrind tutor: stepped to the lesson's last step" "step $n/$n"
keys q
expect_screen "valgrind tutor: back home" "Self-attention, step by step"
keys L                              # the lab from home
expect_screen "valgrind tutor: the lab" "attn-tutor · Attention lab"
keys g j j j j j j j                 # from the first query (the lab opens on the pronoun)
expect_screen "valgrind tutor: j moves to query 8" "Query 8:"
keys ']' ','
expect_line "valgrind tutor: every head of layer 1" 'layer 1/[0-9]+ · all [0-9]+ heads'
keys m s
expect_screen "valgrind tutor: the causal mask" "causal mask"
expect_screen "valgrind tutor: not scaled" "not scaled"
keys a
expect_line "valgrind tutor: a: one head again" 'layer 1/[0-9]+ · head 1/[0-9]+'
keys m s i C-u
expect_screen "valgrind tutor: the sentence cleared" "type a sentence"
type_text "小明今天没来学校，因为他生病了。"
keys Tab
expect_screen "valgrind tutor: a Chinese sentence in the lab" "16 tokens"
resize 40 12
expect_screen "valgrind tutor: the lab at 40×12" "16 tokens"
resize 100 30
expect_screen "valgrind tutor: the lab at 100×30 again" "16 tokens · layer"
lab=$SCREEN
# shrunk and grown back while the tutor was stopped (tests/e2e/stale_cells.sh)
n=$(frame_number)
resize_unseen 40 12
wait_frame_after "$n" >/dev/null
expect_eq "valgrind tutor: the lab after a resize undone unseen, cell for cell" "$lab" "$SCREEN"
keys q
expect_screen "valgrind tutor: home again" "Self-attention, step by step"
left=$(printf '%s\n' "$SCREEN" | grep -o '[小明今天没来学校，因为他生病了。]' | sort -u | tr -d '\n')
expect_eq "valgrind tutor: home again: no character of the sentence left" "" "$left"
expect_line "valgrind tutor: home again: its status bar ends in '? help'" '\? help$'
keys t
expect_screen "valgrind tutor: the self-test" "question 1 of"
i=0
while [ $i -lt 8 ] && ! shows "Question q3"; do keys Right; i=$((i + 1)); done
keys a
type_text "0.12 0.21"
keys Enter
expect_screen "valgrind tutor: a wrong answer graded" "Not right yet"
keys a C-u
type_text "0.14 0.17"
keys Enter
expect_screen "valgrind tutor: the right answer graded" "✓ Right"
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
