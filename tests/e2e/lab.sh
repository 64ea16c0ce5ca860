# The attention lab in a real terminal (tmux): tokens, heatmap rows, the detail pane,
# Chinese sentences, the causal mask, typing by grapheme.
. tests/lib.sh
. tests/e2e/lib/tmux.sh

EN="The animal didn't cross the road because it was too tired."

tutor_start 100 30 -- --lang en lab "$EN"
expect_screen "lab: 12 tokens (11 words and the full stop)" "12 tokens"
for tok in animal "didn't" because tired; do
  case "$(line_of "$tok")" in *"$tok"*) ok "lab: heatmap shows '$tok'" ;; *) not_ok "lab: heatmap shows '$tok'" ;; esac
done
expect_line "lab: the row for 'it' holds weights" '^ it +((\.[0-9]{2}|1\.0) +){11}(\.[0-9]{2}|1\.0)' 
expect_screen "lab: it opens with the cursor on the pronoun 'it'" "Query 8: it"
keys k k k k k k k
expect_screen "lab: moving up 7 rows selects the query 'The'" "Query 1: The"
keys j j j j j j j
expect_screen "lab: moving down 7 rows selects the query 'it' again" "Query 8: it"
expect_screen "lab: detail pane lists q·k, scaled and weight" "weight"
expect_screen "lab: detail pane names the top 3" "top 3:"
expect_line "lab: the trained model's 'it' attends most to 'animal'" '^ +1\. [01]\.[0-9]{3} animal' 
expect_not_screen "lab: no NaN on screen" "nan"

tutor_start 100 30 -- --lang en lab "今天 下雨 我 没 带 伞"
expect_screen "lab: spaced Chinese gives 6 tokens" "6 tokens"
expect_screen "lab: the word 下雨 is one token" "下雨"

tutor_start 100 30 -- --lang en lab "小明今天没来学校"
expect_screen "lab: unspaced Chinese gives 8 tokens" "8 tokens"
# one character per row label
expect_line "lab: the row for 校 holds weights" '^ 校 +[01]?\.[0-9]{2}' 

# The causal mask zeroes the upper triangle (60 columns: the detail pane goes below).
tutor_start 60 20 -- --lang en lab "$EN"
expect_screen "lab 60×20: 12 tokens" "12 tokens"
first=$(printf '%s\n' "$SCREEN" | grep -E '^ The ' | head -1)
case "$first" in *"·"*) not_ok "lab: no masked cells before m" "$first" ;; *) ok "lab: no masked cells before m" ;; esac
keys m
expect_screen "lab: m turns the causal mask on" "causal mask"
first=$(printf '%s\n' "$SCREEN" | grep -E '^ The ' | head -1)
dots=$(printf '%s' "$first" | grep -o '·' | wc -l)
expect_eq "lab: masked row 1 has 11 masked cells" 11 "$dots"
case "$first" in *"1.0"*) ok "lab: row 1 gives its only visible key weight 1" ;; *) not_ok "lab: row 1 gives its only visible key weight 1" "$first" ;; esac
last=$(printf '%s\n' "$SCREEN" | grep -E '^ \. ' | head -1)
case "$last" in *"·"*) not_ok "lab: the last row sees every key" "$last" ;; *) ok "lab: the last row sees every key" ;; esac
keys m
expect_screen "lab: m again turns it off" "no mask"

# Typing by grapheme: ä, 注, Backspace leaves ä (case 9).
tutor_start 100 30 -- --lang en lab
expect_screen "lab without a sentence opens with an example" "Sentence: The animal"
# prefilled: the heatmap has the keys (m is the mask, not a letter of the sentence)
keys m
expect_screen "lab with the example: m turns the causal mask on" "causal mask"
expect_screen "lab with the example: m typed nothing" "Sentence: The animal didn't cross"
keys m i C-u
expect_screen "lab: Ctrl-U clears the sentence" "Type a sentence"
expect_line "empty lab: asks for a sentence, with the model's layer and head counts" \
  'type a sentence · layer [1-9][0-9]*/[1-9][0-9]* · head [1-9][0-9]*/[1-9]'
case "$SCREEN" in *"/0 "*|*"0 tokens"*) not_ok "empty lab: no 0 counts" "$SCREEN" ;; *) ok "empty lab: no 0 counts" ;; esac
type_text "ä"
type_text "注"
expect_screen "lab: typed ä and 注" "Sentence: ä注"
keys BSpace
expect_screen "lab: the heatmap follows the edit (1 token)" "1 token"
input=$(line_of "Sentence:" | sed 's/ *$//')
expect_eq "lab: Backspace removes 注, ä remains" " Sentence: ä" "$input"

# Layers, heads and the CSV export (written in the current folder, named on screen).
tutor_start 100 30 -- --lang en lab "小明今天没来学校"
expect_screen "lab: starts on the last layer" "layer 2/2"
keys '['
expect_screen "lab: [ goes to layer 1" "layer 1/2"
keys a
expect_screen "lab: a shows every head of the layer" "head 4"
keys 2
expect_screen "lab: 2 picks head 2" "head 2/4"
keys e
expect_screen "lab: e names the CSV file" "Saved the weights to attention-L1-H2-"
csv=$(ls "$E2E_TMP"/attention-L1-H2-*.csv 2>/dev/null | head -1)
if [ -n "$csv" ]; then
  expect_eq "lab: CSV header row" "query,小,明,今,天,没,来,学,校" "$(head -1 "$csv")"
  expect_eq "lab: CSV has a row per query token" 9 "$(wc -l < "$csv" | tr -d ' ')"
  sum=$(awk -F, 'NR==2 { s = 0; for (i = 2; i <= NF; i++) s += $i; printf "%.3f", s }' "$csv")
  expect_eq "lab: a CSV row of weights sums to 1" "1.000" "$sum"
else
  not_ok "lab: CSV file written" "$(ls "$E2E_TMP")"
fi

# At 40×12 the export message shows the whole file name (head 3's file: a message of
# this export, not the one before).
resize 40 12
keys . e
expect_line "lab 40×12: the saved file's name shows whole" 'attention-L1-H3-[0-9-]+\.csv'

# a: all heads on and off; 4 heads of 12 tokens fit at 100×30 (small cells).
tutor_start 100 30 -- --lang en lab "$EN"
expect_screen "all heads: lab opens" "12 tokens"
heads=$(line_of "12 tokens" | sed 's|.*head [0-9]*/\([0-9]*\).*|\1|')
layers=$(line_of "12 tokens" | sed 's|.*layer [0-9]*/\([0-9]*\).*|\1|')
# the layer with the most heads: the last (where the lab opens) or the first
keys '['
expect_screen "all heads: [ goes to layer 1" "layer 1/$layers"
h1=$(line_of "12 tokens" | sed 's|.*head [0-9]*/\([0-9]*\).*|\1|')
if [ "$h1" -lt "$heads" ]; then
  keys ']'
  expect_screen "all heads: ] goes back to the last layer" "layer $layers/$layers"
else
  heads=$h1
fi
keys a
expect_screen "all heads at 100×30, 12 tokens: every head drawn" "all $heads heads"
expect_screen "all heads at 100×30: the last head's heatmap is there" "head $heads"
case "$SCREEN" in *"do not fit"*) not_ok "all heads at 100×30: they fit" "$SCREEN" ;; *) ok "all heads at 100×30: they fit" ;; esac
keys a
expect_screen "a again: back to one head" "head 1/$heads"
expect_not_screen "a again: no longer every head" "all $heads heads"

# 80×24, the example sentence: the heatmap keeps its numbers (the detail pane moves
# below), and the column labels are never glued together.
tutor_start 80 24 -- --lang en lab "$EN"
expect_screen "lab 80×24: opens" "12 tokens"
expect_line "lab 80×24: the heatmap rows show weights (the cursor on 'it')" '^ +it +[ ░▒▓█]*[01]\.[0-9]{2}'
case "$SCREEN" in *Thandi*|*Theanimal*) not_ok "lab 80×24: column labels not glued" "$SCREEN" ;; *) ok "lab 80×24: column labels not glued" ;; esac
# 100×30, 15 Chinese tokens: numbers, or a line saying where they are
tutor_start 100 30 -- --lang en lab "小明今天没来学校因为他生病了呢"
expect_screen "lab 100×30 zh 15 tokens: opens" "15 tokens"
if printf '%s\n' "$SCREEN" | grep -Eq '^ +[小明今天] +[ ░▒▓█]*[01]\.[0-9]{2}|colour only'; then ok "lab 100×30 zh: numbers, or said where they are"; else not_ok "lab 100×30 zh: numbers, or said where they are" "$SCREEN"; fi

# a on a layer with one head: says so, never "all 1 heads".
tutor_start 100 30 -- --lang en lab "$EN"
expect_screen "one head: lab opens" "12 tokens"
# go to a layer with one head (the model's layers are tried in turn)
for _ in 1 2 3 4; do
  shows "head 1/1 " && break
  keys ']'
done
keys a
expect_screen "one head: a says the layer has one head" "one head"
case "$SCREEN" in *"all 1 heads"*|*"do not fit"*) not_ok "one head: no 'all 1 heads'" "$SCREEN" ;; *) ok "one head: no 'all 1 heads'" ;; esac

# A sentence longer than the model reads (256 tokens): the first 256 are shown, with a
# note; a sentence longer than the line holds (8191 bytes) is cut, with a note.
long=$(i=0; while [ $i -lt 700 ]; do printf 'cat '; i=$((i + 1)); done)
tutor_start 100 30 -- --lang en lab "$long"
expect_screen "700 tokens: the first 256 are shown" "256 tokens"
expect_screen "700 tokens: a note says so" "first 256 of 700 tokens (model limit)"
huge=$(i=0; while [ $i -lt 2100 ]; do printf 'dog '; i=$((i + 1)); done)
tutor_start 100 30 -- --lang en lab "$huge"
expect_screen "8400 bytes: a note says where it was cut" "sentence cut at 8191 bytes"
expect_screen "8400 bytes: the first 256 tokens of what is left" "of 2048 tokens"
tutor_start 40 12 -- --lang zh lab "$long"
expect_screen "700 tokens in Chinese at 40×12: the note is translated and fits" "只显示前 256/700 个词元（模型上限）"
