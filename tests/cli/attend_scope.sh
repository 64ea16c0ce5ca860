# attn-tutor attend: the model's scope (default head, unseen words, the note that the
# weights are not learned meaning, the rows of the coreference head that were trained),
# in JSON and in the table, English and Chinese (CSV keeps its columns).
. tests/lib.sh

# One JSON field (a Python expression over d) of attend --format json SENTENCE [FLAGS…].
field() {
  expr=$1; shift
  "$AT_BIN" attend --format json "$@" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
v = eval(sys.argv[1])
print(json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v)' "$expr"
}

IN="The animal didn't cross the road because it was too tired."
# The default head is the one the table shows first, counted from 1.
layer=$(field 'd["default_layer"]' "$IN")
head=$(field 'd["default_head"]' "$IN")
table=$("$AT_BIN" attend --lang en "$IN" 2>/dev/null)
expect_contains "attend: the table shows the default layer and head first" \
  "layer $layer of 2, head $head of 1 (the coreference head)" "$table"
expect_eq "attend json: default layer/head name the coreference head" \
  "$(field '[d["coref"]["layer"], d["coref"]["head"]]' "$IN")" "[$layer, $head]"

# A sentence of a training frame: nothing unseen, no note, only the pronoun's row trained.
expect_eq "attend json: training sentence: nothing unseen" "[]" "$(field 'd["unseen"]' "$IN")"
expect_eq "attend json: training sentence: no scope note" "null" "$(field 'd["scope_note"]' "$IN")"
expect_eq "attend json: training sentence: no reasons" "[]" "$(field 'd["scope_reasons"]' "$IN")"
expect_eq "attend json: training sentence: the trained row is it's alone" '["it"]' \
  "$(field '[t for t, r in zip(d["tokens"], d["coref"]["trained_rows"]) if r]' "$IN")"

# What it was trained on comes from the model file: its vocabulary and frames.
meta=$(python3 -c '
import json, struct, sys
b = open("models/mini.safetensors", "rb").read()
m = json.loads(b[8:8 + struct.unpack("<Q", b[:8])[0]])["__metadata__"]
c = json.loads(m["corpus"])
print(len(json.loads(m["vocab"])), sum(not f["held_out_frame"] for f in c["frames"]), c["sentences"])')
expect_eq "attend json: trained_on counts the file's words, frames and sentences" "$meta" \
  "$(field '" ".join(str(d["trained_on"][k]) for k in ("words", "frames", "sentences"))' "$IN")"
frames=$(python3 -c '
import yaml
print(sum(not f.get("held_out_frame", False) for f in yaml.safe_load(open("models/corpus.yaml"))["frames"]))')
expect_eq "attend json: as many frames as models/corpus.yaml trains on" "$frames" \
  "$(field 'd["trained_on"]["frames"]' "$IN")"
PRON=$(python3 -c '
import json, struct
b = open("models/mini.safetensors", "rb").read()
c = json.loads(json.loads(b[8:8 + struct.unpack("<Q", b[:8])[0]])["__metadata__"]["corpus"])
print("/".join(c["pronouns"]))')
expect_eq "attend json: the pronouns it was trained at, from the file" \
  "$(python3 -c 'import sys; print(repr(sys.argv[1].split("/")).replace(chr(39), chr(34)))' "$PRON")" \
  "$(field 'd["trained_on"]["pronouns"]' "$IN")"
expect_contains "attend: the table says what the model was trained on" \
  "trained only to tell which noun $PRON refers to, on $frames sentence frames" "$table"
expect_contains "attend: the table names the previous-token head" \
  "layer 1 head 1 was trained to look at the token before it, on any sentence" "$table"
expect_contains "attend: the table marks the trained row" "← trained row" "$table"
expect_contains "attend: the table says the other rows were never trained" \
  "the other 11 rows of this head were never trained" "$table"

# A few unseen words with the pronoun: listed, but no note (1 of 12 tokens).
S="The dog didn't cross the canal because it was too tired."
expect_eq "attend json: one unseen word" '["canal"]' "$(field 'd["unseen"]' "$S")"
expect_eq "attend json: one unseen word: no note" "null" "$(field 'd["scope_note"]' "$S")"

# Outside the frames: many unseen words, each listed once in order of appearance.
S="The penguin slipped on the ice because it ran too fast. The penguin was fine."
expect_eq "attend json: distinct unseen words in order" \
  '["penguin", "slipped", "on", "ice", "ran", "fast", "fine"]' "$(field 'd["unseen"]' "$S")"
expect_eq "attend json: unseen tokens counted per occurrence" 8 "$(field 'd["unseen_tokens"]' "$S")"
expect_eq "attend json: unseen share" "0.4705882" "$(field 'round(d["unseen_share"], 7)' "$S")"
expect_eq "attend json: over a quarter unseen: the reason" '["unseen_over_quarter"]' \
  "$(field 'd["scope_reasons"]' "$S")"
expect_contains "attend json: over a quarter unseen: the note" \
  "the weights here are not learned meaning: 47% of the tokens are words it never saw" \
  "$(field 'd["scope_note"]' "$S" --lang en)"

# The previous-token head: named in JSON with its weights on this very sentence.
expect_eq "attend json: the named head is layer 1 head 1" '[1, 1, "previous token"]' \
  "$(field '[d["named_head"][k] for k in ("layer", "head", "role")]' "$S")"
expect_eq "attend json: its mean is the mean of its rows' weight on the token before" ok \
  "$(field '"ok" if abs(d["named_head"]["previous_token_mean"] - sum(d["layers"][0]["heads"][0]["weights"][i][i - 1] for i in range(1, len(d["tokens"]))) / (len(d["tokens"]) - 1)) < 1e-6 and d["named_head"]["previous_token_min"] >= 0.7 else d["named_head"]' "$S")"
expect_eq "attend json --untrained: no named head" null "$(field 'd["named_head"]' "$S" --untrained)"
out=$("$AT_BIN" attend --lang en --layer 1 --head 1 "$S" 2>/dev/null)
expect_contains "attend: the table names the previous-token head" \
  "layer 1 of 2, head 1 of 4 (the previous-token head)" "$out"
expect_contains "attend: the table says what it does on this sentence" "on this sentence: " "$out"

# Repeated unseen words count once (zq zq zq zq zq is one word, five tokens).
expect_eq "attend json: zq zq zq zq zq: one unseen word" '["zq"]' "$(field 'd["unseen"]' "zq zq zq zq zq")"
expect_eq "attend json: zq zq zq zq zq: five unseen tokens" 5 "$(field 'd["unseen_tokens"]' "zq zq zq zq zq")"
expect_eq "attend json: case does not make a new word" '["Elephant"]' \
  "$(field 'd["unseen"]' "Elephant elephant ELEPHANT")"
out=$("$AT_BIN" attend --lang en "zq zq zq zq zq" 2>/dev/null)
expect_contains "attend: the table lists a repeated unseen word once" \
  "never seen in training (5 of 5 tokens, 100%; vectors guessed from character n-grams): zq
" "$out"
expect_contains "attend: no pronoun: the note says so" \
  "the model was trained only at $PRON, and this sentence has none" "$out"
expect_contains "attend: no pronoun: no row of the head was trained" "no row of this head was trained" "$out"

# No trained pronoun, every word known: the note still says the weights mean nothing.
S="The animal didn't cross the road."
expect_eq "attend json: no pronoun, nothing unseen: the reason" '["no_trained_pronoun"]' \
  "$(field 'd["scope_reasons"]' "$S")"
expect_eq "attend json: no pronoun: no trained row" "[]" \
  "$(field '[t for t, r in zip(d["tokens"], d["coref"]["trained_rows"]) if r]' "$S")"

# Chinese: a training sentence, characters it never saw (字), no pronoun.
expect_eq "attend json zh: training sentence: no note" "null" \
  "$(field 'd["scope_note"]' "小明今天没来学校，因为他生病了。")"
expect_eq "attend json zh: training sentence: the trained row is 他" '["他"]' \
  "$(field '[t for t, r in zip(d["tokens"], d["coref"]["trained_rows"]) if r]' "小明今天没来学校，因为他生病了。")"
S="企鹅在冰面上滑倒了，因为它跑得太快。企鹅很好。"
expect_eq "attend json zh: unseen characters once each, in order" \
  '["企", "鹅", "冰", "面", "倒", "跑", "得", "快"]' "$(field 'd["unseen"]' "$S")"
expect_eq "attend json zh: unseen tokens counted per occurrence" 10 "$(field 'd["unseen_tokens"]' "$S")"
expect_contains "attend json zh: the note speaks of characters" \
  "43% of the tokens are characters it never saw" "$(field 'd["scope_note"]' "$S")"
expect_eq "attend json: the note is the same whatever the language" \
  "$(field 'd["scope_note"]' "$S" --lang en)" "$(field 'd["scope_note"]' "$S" --lang zh)"
out=$("$AT_BIN" attend --lang zh "$S" 2>/dev/null)
expect_contains "attend zh: the table's note in Chinese speaks of characters (字)" \
  "注意：这里的权重不是学到的语义：43% 的词元是模型没见过的字" "$out"
case "$out" in *字母*|*letter*) not_ok "attend zh: no letters for characters" "$out" ;;
  *) ok "attend zh: no letters for characters" ;; esac
expect_contains "attend zh: the table lists the unseen characters" \
  "训练中没见过的字（占 23 个词元中的 10 个，43%；向量由字符 n-gram 推测）：企 鹅 冰 面 倒 跑 得 快" "$out"
expect_contains "attend zh: the table says what the model was trained on" "只训练过判断 $PRON 指的是哪个名词" "$out"
expect_eq "attend json zh: 她 is a pronoun it was trained at" '[]' \
  "$(field 'd["scope_reasons"]' "小明今天没来学校，因为她生病了。")"
expect_eq "attend json zh: no pronoun: the reason" '["no_trained_pronoun"]' \
  "$(field 'd["scope_reasons"]' "小明今天没来学校。")"

# Untrained demo weights: the note says so, nothing claims a training.
expect_eq "attend json --untrained: the reason" '["untrained"]' "$(field 'd["scope_reasons"]' "$IN" --untrained)"
expect_eq "attend json --untrained: no training recorded" "null" "$(field 'd["trained_on"]' "$IN" --untrained)"
expect_eq "attend json --untrained: no trained row" "[]" \
  "$(field '[r for r in d["coref"]["trained_rows"] if r]' "$IN" --untrained)"

# show: a lesson's lab step says the same (lesson 4 has sentences outside the frames).
out=$("$AT_BIN" show --lang en it-animal 2>/dev/null)
expect_contains "show: the lab step of a held-out frame lists its unseen words" \
  "never seen in training: talked felt much better" "$out"
expect_contains "show: the lab step of a held-out frame carries the note" \
  "note: the weights here are not learned meaning: 36% of the tokens are words it never saw" "$out"
expect_contains "show: the lab step on the previous-token head says what it does there" \
  "the previous-token head (trained so that every token looks at the one before it, on any sentence): here " "$out"
out=$("$AT_BIN" show --lang zh it-animal 2>/dev/null)
expect_contains "show zh: the lab step of a held-out frame lists unseen characters" \
  "训练中没见过的字：聊 以 得 多" "$out"
notes=$(printf '%s\n' "$out" | grep -c "注意：这里的权重不是学到的语义")
expect_eq "show zh: the two lab steps of the held-out frame carry a note" 2 "$notes"
expect_contains "show zh: the lab step on the previous-token head says what it does there" \
  "前一个词元头（训练成让每个词元都看前一个词元，任何句子都适用）：这里每一行平均" "$out"
