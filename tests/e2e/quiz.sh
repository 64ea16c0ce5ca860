# The self-test screen: Q3 (softmax by hand) answered wrong and right, hints, the
# reference answer, the score summary, and the record in the progress store.
. tests/lib.sh
. tests/e2e/lib/tmux.sh

tutor_start 100 30 -- --lang en quiz
expect_screen "quiz: opens at the first question" "question 1 of"
i=0
while [ $i -lt 8 ] && ! shows "Question q3"; do keys Right; i=$((i + 1)); done
expect_screen "quiz: → reaches Q3" "Question q3"
expect_screen "quiz: Q3's prompt" "今天 0.1, 下雨 0.3"
keys H
expect_screen "quiz: H shows the first hint" "Hint 1:"
keys r
expect_screen "quiz: no reference answer before an attempt" "Try an answer first"
# wrong: the raw scores normalised without exp
keys a
type_text "0.12 0.21"
keys Enter
expect_screen "quiz: a wrong answer is marked" "✗ Not right yet"
keys r
expect_screen "quiz: r shows the reference answer after an attempt" "Reference answer:"
expect_screen "quiz: the reference holds the engine's weights" "0.14"
# right: 下雨 1.3499/9.7504 = 0.1384, 没 1.6487/9.7504 = 0.1691
keys a C-u
type_text "0.14 0.17"
keys Enter
expect_screen "quiz: the right answer is marked" "✓ Right"
# a malformed answer is not an attempt
keys a C-u
type_text "0.14abc"
keys Enter
expect_screen "quiz: a malformed answer says it cannot be read" "cannot be read"
expect_screen "quiz: … and how to try again (the answer line is left)" "Press a to try again."
i=0
while [ $i -lt 10 ] && ! shows "Your score"; do keys Right; i=$((i + 1)); done
expect_screen "quiz: after the last question, the score" "Your score"
expect_line "quiz: summary lists Q3 as right" '^ +Q3 +right'
expect_screen "quiz: summary counts it" "1 of"
store="$XDG_STATE_HOME/attn-tutor/progress.yaml"
if grep -q "id: self-test:q3" "$store" 2>/dev/null && grep -A4 "id: self-test:q3" "$store" | grep -q "attempts: 2"; then
  ok "quiz: two attempts of q3 saved in the progress store"
else
  not_ok "quiz: two attempts of q3 saved in the progress store" "$(cat "$store" 2>&1 | head -30)"
fi
# Opened directly (attn-tutor quiz) there is no home screen under the quiz: the summary
# and the status bar say q quits, and q does quit.
expect_screen "quiz opened directly: the summary says q quits" "q quits."
expect_screen "quiz opened directly: the status bar says q: quit" "q: quit"
expect_not_screen "quiz opened directly: no promise of a home screen" "q to the home screen"
keys q
if wait_exit; then ok "quiz opened directly: q quits"; else not_ok "quiz opened directly: q quits" "$SCREEN"; fi
# From the home screen, q goes back there and the summary says so.
tutor_start 100 30 -- --lang en
expect_screen "quiz from home: home opens" "Attention lab"
keys t
expect_screen "quiz from home: the self-test opens" "question 1 of"
i=0
while [ $i -lt 10 ] && ! shows "Your score"; do keys Right; i=$((i + 1)); done
expect_screen "quiz from home: the summary says q goes home" "q to the home screen."
keys q
expect_screen "quiz from home: q goes back home" "Self-attention, step by step"
