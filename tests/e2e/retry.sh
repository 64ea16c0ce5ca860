# A new try after a graded one: the answer line opens empty (not the old answer with
# the new one typed after it), the hint names the key ("Press a to try again"), and
# a wrong formula or number is diagnosed without giving the expected answer away
# until a second wrong try or r (as a wrong choice is).
. tests/lib.sh
. tests/e2e/lib/tmux.sh

# sdp-2, the last step of lesson 3: a wrong choice, then the right letter alone.
tutor_start 100 30 -- --lang en lesson scaled-dot-product
expect_screen "retry: lesson 3 opens" "step 1/"
keys End
expect_screen "retry: the question sdp-2" "Question sdp-2"
keys b
expect_screen "retry: a wrong choice asks to try again with the key" \
  "Press a letter to try again, or r to see the right answer."
keys a
expect_screen "retry: the right letter alone is right" "✓ Right"
expect_line "retry: the answer is the new letter alone" '^ *Your answer: a *$'
expect_not_screen "retry: the old answer is not kept" "Your answer: ba"
expect_not_screen "retry: no 'not an option' error" "is not an option"
keys q
wait_exit >/dev/null

# Self-test q2 (formula): a first try with one slip is partly right and shows the
# diagnosis, not the expected form; a second one that is not right shows it.
tutor_start 100 40 -- --lang en quiz
expect_screen "retry: the self-test opens" "Question q1"
keys Right
expect_screen "retry: q2" "Question q2"
keys a
type_text "softmax(QK^T)V"
keys Enter
expect_screen "retry: one slip marked partly right" "◐ Partly right"
expect_screen "retry: formula diagnosis shown" "No scaling"
expect_screen "retry: formula asks to try again" "Press a to try again"
expect_not_screen "retry: formula expected form held back on a first try" "Expected:"
expect_not_screen "retry: formula explanation held back on a first try" "What the denominator is for"
keys a
type_text "QK^T V"
keys Enter
expect_screen "retry: a second wrong formula is marked wrong" "✗ Not right yet"
expect_screen "retry: a second wrong formula shows the expected form" \
  "Expected: softmax(Q K^T / sqrt(d_k)) V"
keys q
wait_exit >/dev/null

# q2 again: r after one wrong try shows the reference.
tutor_start 100 40 -- --lang en quiz
expect_screen "retry: the self-test opens again" "Question q1"
keys Right
expect_screen "retry: q2 again" "Question q2"
keys a
type_text "softmax(QK^T)V"
keys Enter
expect_screen "retry: formula wrong again" "Press a to try again"
keys r
expect_screen "retry: r shows the reference answer" "Reference answer:"
expect_screen "retry: … with the expected form" "softmax(Q K^T / sqrt(d_k)) V"
keys q
wait_exit >/dev/null

# q3 (numbers): a first wrong try names the slip; the engine's worked steps, the right
# answer and the explanation wait for r or a second wrong try.
tutor_start 100 40 -- --lang en quiz
expect_screen "retry: the self-test opens a third time" "Question q1"
keys Right Right Right
expect_screen "retry: q3" "Question q3"
keys a
type_text "0.125 0.208"
keys Enter
expect_screen "retry: numbers marked wrong" "✗ Not right yet"
expect_screen "retry: numbers ask to try again" "Press a to try again"
expect_screen "retry: the slip is named" "exp was skipped"
expect_not_screen "retry: no worked steps on a first try" "The steps, with the engine's numbers:"
expect_not_screen "retry: no engine value on a first try" "0.1384"
expect_not_screen "retry: numbers explanation held back on a first try" "softmax in three moves"
keys a
expect_line "retry: the number answer line opens empty" '^ *Your answer: *$'
type_text "0.5 0.2"
keys Enter
expect_screen "retry: a second wrong try shows the worked steps" "The steps, with the engine's numbers:"
expect_screen "retry: … and the right answer" "0.1384 ≈ 0.14"
keys q
wait_exit >/dev/null

# Chinese: the hint is translated.
tutor_start 100 30 -- --lang zh lesson scaled-dot-product
expect_screen "retry: zh lesson 3 opens" "第 3 课"
keys End
expect_screen "retry: zh question sdp-2" "题目 sdp-2"
keys b
expect_screen "retry: zh hint names the key" "按一个字母再试一次，或按 r 查看正确答案。"
keys q
wait_exit >/dev/null

# A numeric slip (lesson 6, mask-2): the first wrong try names it (all n² pairs counted)
# without the right number; a second wrong try gives the answer, a whole number as such.
tutor_start 100 30 -- --lang en lesson masking
expect_screen "retry slip: lesson 6 opens" "lesson 6 · step 1/"
keys End Left
expect_screen "retry slip: the question mask-2" "Question mask-2"
keys a
type_text "36"
keys Enter
expect_screen "retry slip: the slip is named" "That counts all n² pairs of the n × n grid."
expect_screen "retry slip: asks to try again" "Press a to try again"
expect_not_screen "retry slip: the right number is held back" "21"
keys a
type_text "20"
keys Enter
expect_screen "retry slip: a second wrong try gives the answer" "The right answer (engine): 21"
expect_not_screen "retry slip: an integer is printed as one" "21.0000"
keys q
wait_exit >/dev/null

# A text answer graded wrong once: the wrong claims are named, the reference is held back
# (copied back it would be graded right); a second wrong try shows it.
tutor_start 100 30 -- --lang en quiz
expect_screen "retry text: the self-test opens" "Question q1"
keys a
type_text "In self-attention information goes step by step, while an RNN connects any two positions in one step."
keys Enter
expect_screen "retry text: graded not right" "Not right yet"
expect_screen "retry text: asks to try again" "Press a to try again"
expect_not_screen "retry text: the reference is held back" "Reference answer:"
keys a
type_text "No idea."
keys Enter
expect_screen "retry text: a second wrong try shows the reference" "Reference answer:"
keys q
wait_exit >/dev/null
