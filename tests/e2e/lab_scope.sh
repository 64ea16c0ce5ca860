# The lab states the mini-model's scope: what it was trained on (from the model file),
# the distinct unseen words with their share, the note that the weights are not
# learned meaning, the coreference head's untrained rows (dimmed), t for a training
# sentence; English and Chinese, at 100×30 and 40×12.
. tests/lib.sh
. tests/e2e/lib/tmux.sh

# From the model file: how many frames it was trained on, and its first example.
FRAMES=$(python3 -c '
import json, struct
b = open("models/mini.safetensors", "rb").read()
c = json.loads(json.loads(b[8:8 + struct.unpack("<Q", b[:8])[0]])["__metadata__"]["corpus"])
print(sum(not f["held_out_frame"] for f in c["frames"]))')
# The pronouns as a screen line names them: at most three of each script, then "…".
SHORT=$(python3 -c '
import json, struct
b = open("models/mini.safetensors", "rb").read()
c = json.loads(json.loads(b[8:8 + struct.unpack("<Q", b[:8])[0]])["__metadata__"]["corpus"])
out = []
for han in (False, True):
    p = [w for w in c["pronouns"] if (ord(w[0]) >= 0x80) == han]
    if p: out.append("/".join(p[:3]) + ("…" if len(p) > 3 else ""))
print(" ".join(out))')
EXAMPLE=$(python3 -c '
import json, struct
b = open("models/mini.safetensors", "rb").read()
c = json.loads(json.loads(b[8:8 + struct.unpack("<Q", b[:8])[0]])["__metadata__"]["corpus"])
print([f["example"] for f in c["frames"] if not f["held_out_frame"] and f["lang"] == "en"][0])')

# A training sentence: the scope line, nothing unseen, no note, the trained row named.
tutor_start 100 30 -- --lang en lab "The animal didn't cross the road because it was too tired."
expect_screen "scope: the trained-row line is drawn" "trained row: it · the other rows of this head were never trained (dimmed)"
expect_screen "scope: what the model was trained on, from the file" \
  "Trained only to tell which noun $SHORT refers to, in $FRAMES sentence frames"
expect_screen "scope: a training sentence has no unseen word" "every word was in the training sentences"
expect_not_screen "scope: a training sentence has no note" "Not learned meaning"
expect_screen "scope: the lab opens on the trained row, the pronoun's" "Query 8: it"
keys g h h h h h h h   # the cursor to the first query and key
expect_screen "scope: g goes to the first query" "Query 1: The"
# the rows training never reached are grey, the pronoun's row keeps its heat colours
attr=$($TM capture-pane -e -p)
# the raw line (with its SGR sequences) of the heatmap row labelled $1
row() {
  printf '%s\n' "$attr" | python3 -c '
import re, sys
for line in sys.stdin:
    if re.sub(r"\x1b\[[0-9;]*m", "", line).startswith(" %s " % sys.argv[1]):
        print(line, end=""); break' "$1"
}
case "$(row it)" in *"48;5;"*) ok "scope: the row of it is in heat colours" ;;
  *) not_ok "scope: the row of it is in heat colours" "$(row it | od -c | head -5)" ;; esac
case "$(row was)" in *"48;5;"*) not_ok "scope: the row of was (untrained) is dimmed" "$(row was | od -c | head -5)" ;;
  *) ok "scope: the row of was (untrained) is dimmed" ;; esac
expect_screen "scope: the detail pane marks an untrained row" "Query 1: The (untrained row)"
keys j j j j j j j
expect_screen "scope: the pronoun's row is the trained one" "Query 8: it"
expect_not_screen "scope: the pronoun's row is not marked untrained" "Query 8: it (untrained row)"

# The query under the cursor is unseen: the note says so (one word of 12 alone does not).
tutor_start 100 30 -- --lang en lab "The elk didn't cross the road because it was too tired."
expect_screen "scope: one unseen word is listed" "unseen words (8% of the tokens): elk"
expect_not_screen "scope: one unseen word of 12, query seen: no note" "Not learned meaning"
keys g j
expect_screen "scope: the query under the cursor is unseen: the note" \
  "Not learned meaning here: the query “elk” is unseen"
keys k
wait_gone "Not learned meaning" >/dev/null
expect_not_screen "scope: back on a seen query: the note goes" "Not learned meaning"

# Out of the frames: the distinct unseen words, once each, with their share, and the note.
tutor_start 100 30 -- --lang en lab "The penguin slipped on the ice because it ran too fast. The penguin was fine."
expect_screen "scope: outside the frames: the note" "Not learned meaning here: 47% unseen words"
expect_eq "scope: the unseen words listed once each, in order" \
  " unseen words (47% of the tokens): penguin slipped on ice ran fast fine" \
  "$(line_of "unseen words" | sed 's/ *$//')"
# Layer 1 head 1: the previous-token head says what it does on this sentence, no note.
keys '[' '1'
expect_screen "scope: the previous-token head is named with its weights here" \
  "Previous-token head (trained, any sentence) · here "
expect_screen "scope: its weights on this sentence" "on the token before, lowest "
expect_not_screen "scope: the previous-token head carries no note" "Not learned meaning"
tutor_start 100 30 -- --lang en lab "zq zq zq zq zq"
expect_screen "scope: zq zq zq zq zq: the note" "Not learned meaning here: 100% unseen words"
expect_eq "scope: zq zq zq zq zq is one unseen word, not five" " unseen words (100% of the tokens): zq" \
  "$(line_of "unseen words" | sed 's/ *$//')"
expect_screen "scope: no pronoun: no row was trained" "No row of this head was trained"

# t: a sentence the model was trained on, with the query on its pronoun.
keys t
expect_screen "scope: t names the training frame" "Training frame 1 of $FRAMES:"
expect_screen "scope: t puts a training sentence in" "Sentence: $EXAMPLE"
expect_screen "scope: t puts the query on the pronoun" "Query 8: it"
expect_not_screen "scope: t: no note on a training sentence" "Not learned meaning"
keys t
expect_screen "scope: t again: the next frame" "Training frame 2 of $FRAMES:"

# A sentence of one's own: the query leaves an untrained row for the pronoun's.
keys g
expect_screen "scope: g: the query on token 1" "Query 1: "
keys i C-u
type_text "My sister fed the cat because she was hungry."
keys Enter
expect_screen "scope: a new sentence puts the query on its pronoun" "Query 7: she"

# The help says what the model can and cannot do.
keys '?'
expect_screen "scope: the help says what the model was trained for" "The built-in model was trained only to tell which noun a"
keys Down Down Down Down Down Down Down Down   # the help is taller than the window: scroll it
expect_screen "scope: the help says which rows were trained" "Only the pronoun's row of the coreference head was"
expect_screen "scope: the help names the previous-token head" "The previous-token head: trained so that"
keys j j j j j j j j j j j j
expect_screen "scope: the help says its limits" "a few hundred words;"

# 40×12: the unseen list and the note still show.
tutor_start 40 12 -- --lang en lab "zq zq zq zq zq"
expect_screen "scope 40×12: the note" "Not learned meaning here:"
expect_eq "scope 40×12: the unseen list" " unseen (100%): zq" "$(line_of "unseen (" | sed 's/ *$//')"
expect_screen "scope 40×12: the summary marks an untrained row" "zq (untrained row) →"
long=$(printf '%s\n' "$SCREEN" | python3 -c '
import sys, unicodedata as u
for line in sys.stdin:
    line = line.rstrip("\n")
    if sum(2 if u.east_asian_width(c) in "WF" else 1 for c in line) > 40: print(line); break')
expect_eq "scope 40×12: no line wider than the terminal" "" "$long"

# Chinese: characters (字), not letters; a resize to 40×12 keeps the list and the note.
tutor_start 100 30 -- --lang zh lab "企鹅在冰面上滑倒了，因为它跑得太快。"
expect_screen "scope zh: unseen characters listed" "没见过的字（占词元的 44%）：企 鹅 冰 面 倒 跑 得 快"
expect_screen "scope zh: the note" "这里的权重不是学到的语义：44% 的字没见过"
expect_screen "scope zh: what it was trained on" "只训练过判断 $SHORT 指的是哪个名词，共 $FRAMES 种句式"
case "$SCREEN" in *字母*|*letter*) not_ok "scope zh: no letters" "$SCREEN" ;; *) ok "scope zh: no letters" ;; esac
resize 40 12
wait_gone "只训练过" >/dev/null
expect_screen "scope zh 40×12: the unseen list" "没见过（44%）：企 鹅 冰 面 倒 跑 得 快"
expect_screen "scope zh 40×12: the note" "这里的权重不是学到的语义："

# Chinese: the previous-token head, named in Chinese with its weights on the sentence.
tutor_start 100 30 -- --lang zh lab "企鹅在冰面上滑倒了，因为它跑得太快。"
keys '[' '1'
expect_screen "scope zh: the previous-token head is named" "前一个词元头（训练过，任何句子都适用） · 这里平均 "
expect_not_screen "scope zh: the previous-token head carries no note" "这里的权重不是学到的语义"
