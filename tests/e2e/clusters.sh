# Grapheme clusters drawn whole or not at all: 👩🏿‍🔧 (skin tone and ZWJ), the ZWJ
# family 👨‍👩‍👧‍👦 (7 code points, more than an ncurses cell holds), 👩‍🔧, 🇨🇳, e +
# U+0301 and Chinese in the lab's sentence line, heatmap labels and side pane, and in a
# quiz answer line, at 100×30 and 40×12; 👍🏽 (a skin-tone modifier), 1️⃣ (a keycap) and
# ❤️ (VS16) in the lab. Each cluster shows whole, in the columns this terminal draws it
# in (tmux 3.3 draws 👍🏽 in 4, ❤️ and 1️⃣ in 1), or as "�" padded to its width where it
# cannot be drawn whole (the family); never a part of it, and what follows stays in
# its column.
. tests/lib.sh
. tests/e2e/lib/tmux.sh

MECH=$(printf '\360\237\221\251\360\237\217\277\342\200\215\360\237\224\247')   # 👩🏿‍🔧
FAMILY=$(printf '\360\237\221\250\342\200\215\360\237\221\251\342\200\215\360\237\221\247\342\200\215\360\237\221\246')
WOMAN_MECH=$(printf '\360\237\221\251\342\200\215\360\237\224\247')           # 👩‍🔧
FLAG=$(printf '\360\237\207\250\360\237\207\263')                             # 🇨🇳
THUMB=$(printf '\360\237\221\215\360\237\217\275')                            # 👍🏽
KEYCAP=$(printf '1\357\270\217\342\203\243')                                   # 1️⃣
HEART=$(printf '\342\235\244\357\270\217')                                     # ❤️
E_ACUTE=$(printf 'e\314\201')
SENT="a${MECH}b $FAMILY $WOMAN_MECH 中 $E_ACUTE ${FLAG}x"

# cols_in_tmux TEXT: the columns tmux moves its cursor by for TEXT, measured in a window
# of its own (as the tutor's start-up probe measures its terminal).
cols_in_tmux() {
  e2e_next_server
  $TM new-session -d -x 40 -y 3 -- sh -c 'printf "%s" "$0"; exec sleep 600' "$1"
  _c=0 _cdeadline=$(( $(date +%s) + E2E_WAIT ))
  while [ "${_c:-0}" -eq 0 ] && [ "$(date +%s)" -lt "$_cdeadline" ]; do
    sleep 0.05
    _c=$($TM display-message -p '#{cursor_x}' 2>/dev/null)
  done
  echo "${_c:-0}"
}
# cells N: N times "W"
cells() { printf "%${1}s" "" | tr ' ' W; }
M=$(cells "$(cols_in_tmux "$MECH")")
T=$(cells "$(cols_in_tmux "$THUMB")")
K=$(cells "$(cols_in_tmux "$KEYCAP")")
H=$(cells "$(cols_in_tmux "$HEART")")
F=$(cells "$(cols_in_tmux "$FLAG")")
Z=$(cells "$(cols_in_tmux "$WOMAN_MECH")")

# Each cluster drawn whole becomes as many "W" as the columns tmux gives it, a 2-column
# placeholder ("� ") "WW", é "e", any other character of one column "."; then a byte
# is a column.
norm() {
  sed -e "s/$MECH/$M/g" -e "s/$FAMILY/WW/g" -e "s/$WOMAN_MECH/$Z/g" -e "s/$FLAG/$F/g" \
      -e "s/$THUMB/$T/g" -e "s/$KEYCAP/$K/g" -e "s/$HEART/$H/g" \
      -e 's/中/WW/g' -e "s/$E_ACUTE/e/g" -e 's/� /WW/g' -e 's/[^ -~]/./g'
}

# No code point of an emoji sequence outside a whole cluster: no lone 👩, 🏿, ZWJ.
expect_no_fragments() {
  rest=$(printf '%s\n' "$SCREEN" | sed -e "s/$MECH//g" -e "s/$FAMILY//g" \
         -e "s/$WOMAN_MECH//g" -e "s/$FLAG//g" -e "s/$THUMB//g" -e "s/$KEYCAP//g" -e "s/$HEART//g")
  if printf '%s\n' "$rest" | grep -qP '[\x{1F000}-\x{1FFFF}\x{200D}\x{FE0F}\x{20E3}]'; then
    not_ok "$1" "a part of a cluster on screen:" "$(printf '%s\n' "$rest" | grep -P '[\x{1F000}-\x{1FFFF}\x{200D}\x{FE0F}\x{20E3}]')"
  else
    ok "$1"
  fi
}

# expect_aligned TAG N: N heatmap rows whose first weights start in one column, and a
# side pane whose numbers end under "weight" (header and N keys).
expect_aligned() {
  cols=$(printf '%s\n' "$SCREEN" | norm | awk '/^ [^ ]+ +[01]?\.[0-9][0-9] /{match($0, /[01]?\.[0-9][0-9]/); print RSTART}' | sort -u)
  expect_eq "$1: $2 heatmap rows, weights aligned" "1 $2" \
    "$(printf '%s\n' "$cols" | wc -l | tr -d ' ') $(printf '%s\n' "$SCREEN" | norm | grep -cE '^ [^ ]+ +[01]?\.[0-9][0-9] ')"
  ends=$(printf '%s\n' "$SCREEN" | norm | awk '/weight$/ || / -?[0-9]+\.[0-9]{3} +-?[0-9]+\.[0-9]{3} +[01]\.[0-9]{3}$/{print length($0)}' | sort -u)
  expect_eq "$1: side pane numbers aligned under 'weight'" 1 "$(printf '%s\n' "$ends" | wc -l | tr -d ' ')"
  expect_eq "$1: side pane lists the header and $2 keys" $(( $2 + 1 )) \
    "$(printf '%s\n' "$SCREEN" | norm | grep -cE 'weight$| -?[0-9]+\.[0-9]{3} +-?[0-9]+\.[0-9]{3} +[01]\.[0-9]{3}$')"
}

tutor_start 100 30 -- --lang en lab
expect_screen "clusters 100×30: the lab opens" "Sentence: The animal"
keys i C-u
expect_screen "clusters 100×30: Ctrl-U clears the sentence" "Type a sentence"
type_text "$SENT"
expect_screen "clusters 100×30: 9 tokens" "9 tokens"
wait_for "top 3" >/dev/null
expect_no_fragments "clusters 100×30: no half-drawn cluster anywhere"
expect_eq "clusters 100×30: sentence line, each cluster in its columns" \
  " Sentence: a${M}b WW $Z WW e ${F}x" "$(line_of "Sentence:" | norm | sed 's/ *$//')"
expect_aligned "clusters 100×30" 9

tutor_start 40 12 -- --lang en lab "$SENT"
expect_screen "clusters 40×12: the lab opens" "9 tokens"
expect_no_fragments "clusters 40×12: no half-drawn cluster anywhere"
expect_eq "clusters 40×12: sentence line" " Sentence: a${M}b WW $Z WW e ${F}x" \
  "$(line_of "Sentence:" | norm | sed 's/ *$//')"
# the column labels: the line above the heatmap's first row (a); 2-column cells:
# 👩🏿‍🔧 over its cell when it takes 2 columns, else "…"
if [ "$M" = WW ]; then labels="      a WW  b WW WW WW  e WW  x"; else labels="        a  .  b WW WW WW  e WW  x"; fi
expect_eq "clusters 40×12: column labels" "$labels" \
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
expect_contains "clusters quiz: answer line, each cluster in its columns" "x${M}y WW WWez" "$line"

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
expect_eq "clusters lesson text: each cluster in its columns" "start a${M}b WW $Z WW e ${F}x end" \
  "$(line_of "start" | norm | sed 's/^ *//; s/ *$//')"

# Emoji modifier, keycap, VS16 and flag sequences in the lab (8 tokens: a 👍🏽 b 👍🏽 1️⃣
# ❤️ 🇨🇳 c): each one whole (every code point in its cells, no "�"), in the columns tmux
# draws it in, and what follows lines up.
MODS="a${THUMB}b $THUMB $KEYCAP $HEART $FLAG c"
for size in "100 30" "40 12"; do
  tutor_start ${size% *} ${size#* } -- --lang en lab "$MODS"
  tag="modifiers ${size% *}×${size#* }"
  expect_screen "$tag: the lab opens" "8 tokens"
  expect_eq "$tag: the sentence line holds every sequence whole" " Sentence: $MODS" \
    "$(line_of "Sentence:" | sed 's/ *$//')"
  expect_eq "$tag: … in its columns" " Sentence: a${T}b $T $K $H $F c" \
    "$(line_of "Sentence:" | norm | sed 's/ *$//')"
  expect_not_screen "$tag: no placeholder anywhere" "�"
  expect_no_fragments "$tag: no part of a sequence anywhere"
  if [ "${size% *}" = 100 ]; then
    expect_aligned "$tag" 8
  else   # the rows that fit, the side pane below them
    cols=$(printf '%s\n' "$SCREEN" | norm | awk '/^ [^ ]+ +[01]?\.[0-9][0-9] /{match($0, /[01]?\.[0-9][0-9]/); print RSTART}' | sort -u)
    expect_eq "$tag: heatmap rows, weights aligned" 1 "$(printf '%s\n' "$cols" | grep -c .)"
  fi
  long=$(printf '%s\n' "$SCREEN" | norm | awk -v w="${size% *}" 'length($0) > w' | head -1)
  expect_eq "$tag: no line wider than the terminal" "" "$long"
done
