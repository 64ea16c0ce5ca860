# The lab's input at scale and on narrow screens: the column labels of a 25-token
# heatmap show at 41 and 60 columns when each one (a CJK character, 2 columns) fits
# its 2-column cell; a long pasted sentence arrives whole (every key applied, the
# model run for the final sentence).
. tests/lib.sh
. tests/e2e/lib/tmux.sh

ZH="注意力机制注意力机制注意力机制注意力机制注意力机制"

for width in 60 41; do
  tutor_start 100 30 -- --lang en lab
  expect_screen "lab $width: opens" "tokens"
  keys i C-u
  expect_screen "lab $width: the sentence is cleared" "type a sentence"
  type_text "$ZH"
  expect_screen "lab $width: 25 tokens" "25 tokens"
  keys Enter
  resize "$width" 14
  # the heatmap's first line: the row labels' column, then one label per 2-column cell
  expect_line "lab $width: the column labels show (one character per cell)" '^ {3,}注意力机制注意'
  expect_line "lab $width: a row keeps its label" '^ 注 '
  keys q
  wait_exit >/dev/null
done

# 100 columns: the labels are there as before.
tutor_start 100 30 -- --lang en lab "$ZH"
expect_screen "lab 100: 25 tokens" "25 tokens"
expect_line "lab 100: the column labels show" '^ {3,}注 *意 *力 *机 *制'
keys q
wait_exit >/dev/null

# A 700-word paste: every key arrives and the model runs on the whole sentence (its
# last word, "zebra", comes nowhere else).
TEXT=$(/usr/bin/python3 -c "
w='the animal did not cross the road because it was too tired'.split()
print(' '.join(w[i % len(w)] for i in range(699)) + ' zebra')")
tutor_start 100 30 -- --lang en lab
expect_screen "lab paste: opens" "tokens"
keys i C-u
expect_screen "lab paste: the sentence is cleared" "type a sentence"
type_text "$TEXT" 600
expect_screen "lab paste: the final token count (model limit)" "first 256 of 700 tokens" 600
keys Home
expect_screen "lab paste: Home shows the start of the sentence" "Sentence: the animal did not cross"
expect_not_screen "lab paste: … and not its end" "zebra"
keys End
expect_screen "lab paste: the sentence ends with its last words" "the animal did zebra"
keys Enter
expect_screen "lab paste: back to the heatmap" "i: type"
keys q
wait_exit >/dev/null
