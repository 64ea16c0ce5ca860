# Question keys in the lesson player and the self-test: H and r say why they do
# nothing, a verdict said once, a wrong choice tried again before the right option is
# shown (a letter answers a choice question), a long answer read from its start after
# grading, a refused answer cleared for the next try, and the student's own
# grade of a text answer (y p n), stored apart as `attn-tutor check --self` does.
. tests/lib.sh
. tests/e2e/lib/tmux.sh

# why-2: a choice question without hints, the last step of lesson 1
tutor_start 100 30 -- --lang en lesson why-attention
expect_screen "lesson: opens" "step 1/"
keys G
expect_screen "lesson: the question why-2" "Question why-2"
keys H
expect_screen "lesson: H on a question without hints says so" "This question has no hints."
keys r
expect_screen "lesson: r before a first try says to try first" "Try an answer first"
keys a
expect_screen "lesson: a letter answers a choice question" "✗ Not right yet"
expect_screen "lesson: the chosen option's own feedback" "The opposite: all positions"
expect_screen "lesson: asked to try again" "Press a letter to try again, or r to see the right answer."
expect_not_screen "lesson: the verdict is said once" "Not right."
expect_not_screen "lesson: the right option is not given away on a first wrong try" "— the right answer"
keys b
expect_screen "lesson: a second wrong try shows the right option" "c) The number of scores grows with the square of the length. — the right answer"
expect_screen "lesson: the second try's own feedback" "— wrong: Plain self-attention"
keys q
wait_exit >/dev/null

# r after one wrong try reveals the right option too (with the reference answer).
tutor_start 100 30 -- --lang en lesson why-attention
keys G
expect_screen "lesson again: the question why-2" "Question why-2"
keys b
expect_screen "lesson again: a wrong choice" "Press a letter to try again"
keys r
expect_screen "lesson again: r shows the reference answer" "Reference answer:"
expect_screen "lesson again: … and the right option in the feedback" "— the right answer"
keys q
wait_exit >/dev/null

# A right choice: "✓ Right" without a second "Correct."
tutor_start 100 30 -- --lang en lesson why-attention
keys G
expect_screen "lesson right: the question why-2" "Question why-2"
keys c
expect_screen "lesson right: marked right" "✓ Right"
expect_not_screen "lesson right: the verdict is said once" "Correct."
keys q
wait_exit >/dev/null

# Self-test q1 (a text question) at 60 columns: a long answer, then the own grade.
tutor_start 60 24 -- --lang en quiz
expect_screen "text: q1 opens" "Question q1"
keys a
type_text "In an RNN the distance grows with the gap; in self-attention any two positions are one step apart"
keys Enter
expect_screen "text: graded" "Key ideas found"
expect_line "text: the answer line reads from the start, cut with …" '^ *Your answer: In an RNN the distance.*…'
expect_screen "text: the status bar names the own-grade keys" "y/p/n: your own grade"
expect_screen "text: how to grade it yourself, in view with the verdict" "p partly · n not yet"
keys '?'
expect_screen "text: help names y p n" "after a text answer is graded"
keys x
expect_not_screen "text: any key closes the help" "after a text answer is graded"
keys p
expect_screen "text: p records partly right as the student's own grade" "Your own grade: partly right"
store="$XDG_STATE_HOME/attn-tutor/progress.yaml"
if grep -A12 "id: self-test:q1" "$store" 2>/dev/null | grep -q "self_assessed: partial"; then
  ok "text: the own grade is stored apart (self_assessed: partial)"
else
  not_ok "text: the own grade is stored apart (self_assessed: partial)" "$(cat "$store" 2>&1 | head -30)"
fi
keys y
expect_screen "text: y changes it to right" "Your own grade: right"
if grep -A12 "id: self-test:q1" "$store" 2>/dev/null | grep -q "self_assessed: correct"; then
  ok "text: the changed grade is stored (self_assessed: correct)"
else
  not_ok "text: the changed grade is stored (self_assessed: correct)" "$(cat "$store" 2>&1 | head -30)"
fi

# In Chinese: the new words are translated.
tutor_start 100 30 -- --lang zh lesson why-attention
keys G
expect_screen "zh: the question why-2" "why-2"
keys H
expect_screen "zh: no hints, translated" "这道题没有提示"
keys a
expect_screen "zh: try again, translated" "按一个字母再试一次"

# A refused answer (it cannot be read: not an attempt) leaves the answer line; the next
# try starts on an empty line, so "a" opens it and is not typed after the refused text.
mkdir -p "$E2E_TMP/state-refused"
tutor_start 100 30 XDG_STATE_HOME="$E2E_TMP/state-refused" -- --lang en quiz
expect_screen "refused: the self-test opens" "Question q1"
keys Right Right Right
expect_screen "refused: q3" "Question q3"
keys a
type_text "0.14abc"
keys Enter
expect_screen "refused: the answer is refused" "? This answer cannot be read"
expect_screen "refused: how to try again" "Press a to try again."
expect_not_screen "refused: the answer line is left" "Enter: grade · Esc: leave the answer line"
keys a
expect_line "refused: the next try starts on an empty line" '^ *Your answer: *$'
keys q
wait_exit >/dev/null

# A letter that is no option of a choice question says so.
mkdir -p "$E2E_TMP/state-letter"
tutor_start 100 30 XDG_STATE_HOME="$E2E_TMP/state-letter" -- --lang en lesson why-attention
keys G
expect_screen "letter: the question why-2" "Question why-2"
keys e
expect_screen "letter: e is not an option of three" "e is not an option: press a letter from a to c."
keys q
wait_exit >/dev/null

# On a screen lower than the question, the line being typed is in view: the question
# scrolls up while the student types, and the typed words can be read.
mkdir -p "$E2E_TMP/state-low"
tutor_start 40 12 XDG_STATE_HOME="$E2E_TMP/state-low" -- --lang en quiz
expect_screen "low screen: q1 opens" "Question q1"
keys a
type_text "RNN O(n), attention O(1)"
expect_line "low screen: the answer line is in view while typing" '^ *Your answer: .*attention O\(1\)'
keys Enter
expect_screen "low screen: graded, the verdict in view" "✓ Right"
expect_screen "low screen: a graded answer asks for an own grade only if the student disagrees" "If you think the grade is off"
keys q
wait_exit >/dev/null
