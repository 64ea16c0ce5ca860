# Grapheme clusters drawn whole or not at all: 👩🏿‍🔧 (skin tone and ZWJ), the ZWJ
# family 👨‍👩‍👧‍👦 (7 code points, more than an ncurses cell holds), 👩‍🔧, 🇨🇳, e +
# U+0301 and Chinese in the lab's sentence line, heatmap labels and side pane, and in a
# quiz answer line, at 100×30 and 40×12. Each cluster shows whole, or as "�" padded to
# its width where this terminal would draw it wider than its width; never its first
# code point alone, and what follows stays in its column.
. tests/lib.sh
. tests/e2e/lib/tmux.sh

MECH=$(printf '\360\237\221\251\360\237\217\277\342\200\215\360\237\224\247')   # 👩🏿‍🔧
FAMILY=$(printf '\360\237\221\250\342\200\215\360\237\221\251\342\200\215\360\237\221\247\342\200\215\360\237\221\246')
WOMAN_MECH=$(printf '\360\237\221\251\342\200\215\360\237\224\247')           # 👩‍🔧
FLAG=$(printf '\360\237\207\250\360\237\207\263')                             # 🇨🇳
E_ACUTE=$(printf 'e\314\201')
SENT="a${MECH}b $FAMILY $WOMAN_MECH 中 $E_ACUTE ${FLAG}x"

# Each cluster of width 2 (drawn whole or as "� ") becomes "WW", é becomes "e", any
# other character of one column "."; then a byte is a column.
norm() {
  sed -e "s/$MECH/WW/g" -e "s/$FAMILY/WW/g" -e "s/$WOMAN_MECH/WW/g" -e "s/$FLAG/WW/g" \
      -e 's/中/WW/g' -e "s/$E_ACUTE/e/g" -e 's/� /WW/g' -e 's/[^ -~]/./g'
}

# No code point of an emoji sequence outside a whole cluster: no lone 👩, 🏿, ZWJ.
expect_no_fragments() {
  rest=$(printf '%s\n' "$SCREEN" | sed -e "s/$MECH//g" -e "s/$FAMILY//g" \
         -e "s/$WOMAN_MECH//g" -e "s/$FLAG//g")
  if printf '%s\n' "$rest" | grep -qP '[\x{1F000}-\x{1FFFF}\x{200D}]'; then
    not_ok "$1" "a part of a cluster on screen:" "$(printf '%s\n' "$rest" | grep -P '[\x{1F000}-\x{1FFFF}\x{200D}]')"
  else
    ok "$1"
  fi
}

tutor_start 100 30 -- --lang en lab
expect_screen "clusters 100×30: the lab opens" "Sentence: The animal"
keys i C-u
expect_screen "clusters 100×30: Ctrl-U clears the sentence" "Type a sentence"
type_text "$SENT"
expect_screen "clusters 100×30: 9 tokens" "9 tokens"
wait_for "top 3" >/dev/null
expect_no_fragments "clusters 100×30: no half-drawn cluster anywhere"
expect_eq "clusters 100×30: sentence line, each cluster in its 2 columns" \
  " Sentence: aWWb WW WW WW e WWx" "$(line_of "Sentence:" | norm | sed 's/ *$//')"
# heatmap rows: the first weight of every row starts in one column
cols=$(printf '%s\n' "$SCREEN" | norm | awk '/^ [^ ]+ +[01]?\.[0-9][0-9] /{match($0, /[01]?\.[0-9][0-9]/); print RSTART}' | sort -u)
expect_eq "clusters 100×30: 9 heatmap rows, weights aligned" "1 9" \
  "$(printf '%s\n' "$cols" | wc -l | tr -d ' ') $(printf '%s\n' "$SCREEN" | norm | grep -cE '^ [^ ]+ +[01]?\.[0-9][0-9] ')"
# side pane: every key's weight ends where the header "weight" ends
ends=$(printf '%s\n' "$SCREEN" | norm | awk '/weight$/ || / -?[0-9]+\.[0-9]{3} +-?[0-9]+\.[0-9]{3} +[01]\.[0-9]{3}$/{print length($0)}' | sort -u)
expect_eq "clusters 100×30: side pane numbers aligned under 'weight'" 1 "$(printf '%s\n' "$ends" | wc -l | tr -d ' ')"
expect_eq "clusters 100×30: side pane lists the header and 9 keys" 10 \
  "$(printf '%s\n' "$SCREEN" | norm | grep -cE 'weight$| -?[0-9]+\.[0-9]{3} +-?[0-9]+\.[0-9]{3} +[01]\.[0-9]{3}$')"

tutor_start 40 12 -- --lang en lab "$SENT"
expect_screen "clusters 40×12: the lab opens" "9 tokens"
expect_no_fragments "clusters 40×12: no half-drawn cluster anywhere"
expect_eq "clusters 40×12: sentence line" " Sentence: aWWb WW WW WW e WWx" \
  "$(line_of "Sentence:" | norm | sed 's/ *$//')"
# the column labels: the line above the heatmap's first row (a)
expect_eq "clusters 40×12: column labels" "      a WW  b WW WW WW  e WW  x" \
  "$(printf '%s\n' "$SCREEN" | norm | awk '/^ a / { print prev; exit } { prev = $0 }' | sed 's/ *$//')"
long=$(printf '%s\n' "$SCREEN" | norm | awk 'length($0) > 40' | head -1)
expect_eq "clusters 40×12: no line wider than the terminal" "" "$long"

# A quiz answer line.
tutor_start 100 30 -- --lang en quiz
expect_screen "clusters quiz: opens at the first question" "question 1 of"
keys a
type_text "x${MECH}y $FAMILY 中${E_ACUTE}z"
expect_screen "clusters quiz: the answer is typed" "中"
expect_no_fragments "clusters quiz: no half-drawn cluster in the answer line"
line=$(printf '%s\n' "$SCREEN" | grep -F "中" | head -1 | norm | sed 's/ *$//')
expect_contains "clusters quiz: answer line, each cluster in its columns" "xWWy WW WWez" "$line"

# Lesson text (a lesson folder of its own).
mkdir -p "$E2E_TMP/emoji/en"
cat > "$E2E_TMP/emoji/en/01-emoji.yaml" <<YAML
id: emoji-text
lang: en
order: 1
title: Emoji
summary: Grapheme clusters in a lesson text.
steps:
  - text: |
      start $SENT end
YAML
tutor_start 100 30 -- --lang en --lessons "$E2E_TMP/emoji" lesson emoji-text
expect_screen "clusters lesson text: the step is shown" "start"
expect_no_fragments "clusters lesson text: no half-drawn cluster"
expect_eq "clusters lesson text: each cluster in its columns" "start aWWb WW WW WW e WWx end" \
  "$(line_of "start" | norm | sed 's/^ *//; s/ *$//')"
