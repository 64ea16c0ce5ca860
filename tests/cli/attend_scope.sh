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
expect_contains "attend: the table says what the model was trained on" \
  "trained only to tell which noun it/它/他 refers to, on $frames sentence frames" "$table"
expect_contains "attend: the table marks the trained row" "← trained row" "$table"
expect_contains "attend: the table says the other rows were never trained" \
  "the other 11 rows of this head were never trained" "$table"

# A few unseen words with the pronoun: listed, but no note (1 of 12 tokens).
S="The dog didn't cross the canal because it was too tired."
expect_eq "attend json: one unseen word" '["canal"]' "$(field 'd["unseen"]' "$S")"
expect_eq "attend json: one unseen word: no note" "null" "$(field 'd["scope_note"]' "$S")"

# Outside the frames: many unseen words, each listed once in order of appearance.
S="My sister gave her dog a bath because it was dirty. My sister was happy."
expect_eq "attend json: distinct unseen words in order" \
  '["My", "sister", "gave", "her", "a", "bath", "dirty", "happy"]' "$(field 'd["unseen"]' "$S")"
expect_eq "attend json: unseen tokens counted per occurrence" 10 "$(field 'd["unseen_tokens"]' "$S")"
expect_eq "attend json: unseen share" "0.5882353" "$(field 'round(d["unseen_share"], 7)' "$S")"
expect_eq "attend json: over a quarter unseen: the reason" '["unseen_over_quarter"]' \
  "$(field 'd["scope_reasons"]' "$S")"
expect_contains "attend json: over a quarter unseen: the note" \
  "the weights here are not learned meaning: 59% of the tokens are words it never saw" \
  "$(field 'd["scope_note"]' "$S" --lang en)"

# Repeated unseen words count once (a a a a a is one word, five tokens).
expect_eq "attend json: a a a a a: one unseen word" '["a"]' "$(field 'd["unseen"]' "a a a a a")"
expect_eq "attend json: a a a a a: five unseen tokens" 5 "$(field 'd["unseen_tokens"]' "a a a a a")"
expect_eq "attend json: case does not make a new word" '["Elephant"]' \
  "$(field 'd["unseen"]' "Elephant elephant ELEPHANT")"
out=$("$AT_BIN" attend --lang en "a a a a a" 2>/dev/null)
expect_contains "attend: the table lists a repeated unseen word once" \
  "never seen in training (5 of 5 tokens, 100%; vectors guessed from character n-grams): a
" "$out"
expect_contains "attend: no pronoun: the note says so" \
  "the model was trained only at it/它/他, and this sentence has none" "$out"
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
S="猫坐在垫子上，因为它很累。猫很累。"
expect_eq "attend json zh: unseen characters once each, in order" '["坐", "在", "垫", "上", "很"]' \
  "$(field 'd["unseen"]' "$S")"
expect_eq "attend json zh: unseen tokens counted per occurrence" 6 "$(field 'd["unseen_tokens"]' "$S")"
expect_contains "attend json zh: the note speaks of characters" \
  "35% of the tokens are characters it never saw" "$(field 'd["scope_note"]' "$S")"
expect_eq "attend json: the note is the same whatever the language" \
  "$(field 'd["scope_note"]' "$S" --lang en)" "$(field 'd["scope_note"]' "$S" --lang zh)"
out=$("$AT_BIN" attend --lang zh "$S" 2>/dev/null)
expect_contains "attend zh: the table's note in Chinese speaks of characters (字)" \
  "注意：这里的权重不是学到的语义：35% 的词元是模型没见过的字" "$out"
case "$out" in *字母*|*letter*) not_ok "attend zh: no letters for characters" "$out" ;;
  *) ok "attend zh: no letters for characters" ;; esac
expect_contains "attend zh: the table lists the unseen characters" \
  "训练中没见过的字（占 17 个词元中的 6 个，35%；向量由字符 n-gram 推测）：坐 在 垫 上 很" "$out"
expect_contains "attend zh: the table says what the model was trained on" "只训练过判断 it/它/他 指的是哪个名词" "$out"
expect_eq "attend json zh: 她 is not a pronoun it was trained at" '["no_trained_pronoun"]' \
  "$(field 'd["scope_reasons"]' "小明今天没来学校，因为她生病了。")"

# Untrained demo weights: the note says so, nothing claims a training.
expect_eq "attend json --untrained: the reason" '["untrained"]' "$(field 'd["scope_reasons"]' "$IN" --untrained)"
expect_eq "attend json --untrained: no training recorded" "null" "$(field 'd["trained_on"]' "$IN" --untrained)"
expect_eq "attend json --untrained: no trained row" "[]" \
  "$(field '[r for r in d["coref"]["trained_rows"] if r]' "$IN" --untrained)"

# show: a lesson's lab step says the same (lesson 4 has one sentence outside the frames).
out=$("$AT_BIN" show --lang en it-animal 2>/dev/null)
expect_contains "show: the out-of-frame lab step lists its unseen words" \
  "never seen in training: My sister gave her a bath dirty" "$out"
expect_contains "show: the out-of-frame lab step carries the note" \
  "note: the weights here are not learned meaning: 58% of the tokens are words it never saw" "$out"
out=$("$AT_BIN" show --lang zh it-animal 2>/dev/null)
expect_contains "show zh: the lab step on 猫 lists unseen characters" "训练中没见过的字：坐 在 垫 上 很" "$out"
notes=$(printf '%s\n' "$out" | grep -c "注意：这里的权重不是学到的语义")
expect_eq "show zh: only the lab step outside the frames carries a note" 1 "$notes"
