# The code lesson's last two questions are answered by typing the corrected lines in the
# tutor's answer field (several statements with ;): a wrong line is told what it breaks
# in the lesson's words, the right one is marked right, code the grader cannot read is
# named and not counted; the same in Chinese.
. tests/lib.sh
. tests/e2e/lib/tmux.sh

tutor_start 120 36 -- --lang en lesson attention-code
expect_screen "code: the lesson opens" "step 1/"
keys G
expect_screen "code: the last question, code-bug-5" "Question code-bug-5"
keys a
type_text "concat = heads.reshape(B, n, d_model)"
keys Enter
expect_screen "code: the plain reshape is told what it breaks" "Tokens are still mixed"
expect_not_screen "code: the right line is not given away on a first try" "Expected:"
expect_screen "code: how to go on" "Press a to try again, or r to see the right answer."
keys r
expect_screen "code: r shows the right line" "concat = heads.transpose(1, 2).reshape(B, n, d_model)"
keys a
type_text "concat = heads.permute(0, 2, 1, 3).flatten(2)"
keys Enter
expect_screen "code: another way of writing the right line is right" "✓ Right"
expect_screen "code: … what it computes named" "your code computes concat (2, 4, 15)"
keys h
expect_screen "code: the question before, code-bug-4" "Question code-bug-4"
keys a
type_text "out = my_softmax(scores + M) @ V"
keys Enter
expect_screen "code: an unknown function is named, with its place" "'my_softmax' is not defined here"
expect_screen "code: … and not counted" "Nothing was counted"
keys a
type_text "scores = scores.masked_fill(~allowed, float(\"-inf\")); weights = F.softmax(scores, dim=-1); out = weights @ V"
keys Enter
expect_screen "code: three statements with ; are right" "✓ Right"
keys q
wait_exit >/dev/null

e2e_next_server
tutor_start 120 36 -- --lang zh lesson attention-code
keys G
expect_screen "code zh: code-bug-5" "code-bug-5"
keys a
type_text "concat = heads.sum(dim=1)"
keys Enter
expect_screen "code zh: the heads blended, in Chinese" "混在了一起"
keys q
wait_exit >/dev/null
