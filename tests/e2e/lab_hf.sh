# The lab on a real checkpoint (--model DIR): a small random GPT-2 and BERT made by
# tests/hf/hfgen.py; the model's own tokens, layers and heads, its own mask, the keys
# that belong to the built-in model say why not, f finds heads; a bad folder is one
# line and exit 2 before the terminal is touched.
. tests/lib.sh
. tests/e2e/lib/tmux.sh
PY=/usr/bin/python3
if ! $PY -c 'import numpy' 2>/dev/null; then
  not_ok "lab hf: python3-numpy is missing (make deps installs it)"; exit 0
fi
dir=$PWD/build/test-hf/lab
rm -rf "$dir" && mkdir -p "$dir"
$PY tests/hf/hfgen.py "$dir/gpt2" --layers 3 --heads 4 --seed 3
$PY tests/hf/hfgen.py --bert "$dir/bert" --layers 2 --heads 4 --seed 5
EN="The animal didn't cross the road because it was too tired."

tutor_start 110 32 -- --lang en --model "$dir/gpt2" lab "$EN"
expect_screen "lab gpt2: the model's own tokens (18 BPE pieces)" "18 tokens"
expect_screen "lab gpt2: layer 1 of 3, head 1 of 4" "layer 1/3 · head 1/4"
expect_screen "lab gpt2: its own causal mask" "causal mask (the model's own)"
expect_screen "lab gpt2: names the folder and its tokenizer" "gpt2 · 3 layers × 4 heads · byte-level BPE tokens"
expect_line "lab gpt2: a word's leading space shows as ␣" '^ ␣animal '
row=$(printf '%s\n' "$SCREEN" | grep -E '^ The ' | head -1)
dots=$(printf '%s' "$row" | grep -o '·' | wc -l)
expect_eq "lab gpt2: row 1 sees only itself (the other cells masked)" 17 "$dots"
keys m
expect_screen "lab gpt2: m says the mask is the model's own" "GPT-2 is causal by construction"
keys ] ]
expect_screen "lab gpt2: ] ] goes to layer 3" "layer 3/3"
# The test model's weights are random: the best head on the previous token is at about
# what an even spread gives (mean of 1/i with the causal mask), and f says none stands out.
keys f
expect_screen "lab gpt2: f measures the previous token (no head stands out in a random model)" "no head stands out on the previous token: the most is layer"
keys f
expect_screen "lab gpt2: f again: the first token" "on the first token"
keys f
expect_screen "lab gpt2: f again: the same word" "on the other pieces of the same word"
keys i C-u
type_text "龍"
expect_screen "lab gpt2: Chinese typed; a character cut between pieces shows ~" "~"

tutor_start 110 32 -- --lang en --model "$dir/bert" lab "$EN"
expect_screen "lab bert: [CLS] … [SEP] around 14 pieces" "16 tokens"
expect_screen "lab bert: no mask (both ways)" "no mask (both ways)"
expect_line "lab bert: the [CLS] row" '^ \[CLS\] '
keys m
expect_screen "lab bert: m says BERT has no causal mask" "BERT attends both ways by construction"

printf '{"model_type": "llama"}' > "$dir/bad-config.json"
mkdir -p "$dir/bad" && cp "$dir/bad-config.json" "$dir/bad/config.json"
err=$("$AT_BIN" --model "$dir/bad" lab 2>&1 </dev/null); rc=$?
expect_eq "lab with a bad model folder: exit 2" 2 "$rc"
expect_eq "lab with a bad model folder: one line naming the file" \
  "attn-tutor: $dir/bad/config.json: model_type 'llama' is not one attn-tutor can open (gpt2, bert)" "$err"

# The key/value cache: typing at the end computes only the new tokens.
tutor_start 110 32 -- --lang en --model "$dir/gpt2" lab "The animal was"
expect_screen "lab gpt2: the first run computes every token" "computed 3 of 3 tokens"
keys i
type_text " t"
expect_screen "lab gpt2: typing at the end computes only the new tokens" "computed 1 of 4 tokens"
# Only the layer shown was computed: layer 2 computes its 4 tokens when it is shown.
keys Enter ]
expect_screen "lab gpt2: ] shows layer 2, computed then for every token" "layer 2/3 · head 1/4"
expect_screen "lab gpt2: layer 2 computes the 4 tokens it had not" "computed 4 of 4 tokens"
keys i BSpace BSpace
expect_screen "lab gpt2: Backspace at the end computes nothing" "computed 0 of 3 tokens"

# Every head of a layer: thumbnails when the full maps do not fit.
LONG="The animal didn't cross the road because it was too tired, so it lay down under a tree and slept."
tutor_start 80 24 -- --lang en --model "$dir/gpt2" lab "$LONG"
keys a
expect_screen "lab gpt2: a shows every head as thumbnails when the maps do not fit" "every head of layer 1: each cell the largest weight of its block"
expect_screen "lab gpt2: the fourth head's thumbnail is there" "head 4"
