# attend --model DIR on GPT-2 folders: small random models made by tests/hf/hfgen.py in
# every layout (F32, F16, BF16, the transformer. prefix with mask buffers and a tied
# lm_head, two shards, gamma/beta), each compared with a NumPy forward pass written from
# the GPT-2 paper (tests/hf/ref_forward.py): max |Δ| ≤ 1e-4 on every weight of every
# layer and head; then every bad input: one line naming the file, exit 2, under ASan.
. tests/lib.sh
. tests/hf/lib.sh
hf_setup gpt2
S_EN="The animal didn't cross the road because it was too tired."
S_ZH="小明今天没来学校，因为他生病了。"
S_MIX="我love你 — naïve café, 3.14159 and 👍🏽 it's   spaced"

for v in "f32:" "f16:--dtype F16" "bf16:--dtype BF16" \
         "prefixed:--prefix transformer. --buffers" "sharded:--shards 2" "gammabeta:--gamma-beta" \
         "bf16-sharded-prefixed:--dtype BF16 --shards 3 --prefix transformer." \
         "wordpiece-vocab:--wordpiece" "wide:--d 96 --heads 6 --layers 4 --positions 128"; do
  name=${v%%:*} args=${v#*:}
  $PY tests/hf/hfgen.py "$dir/$name" $args --seed 3 || { not_ok "hfgen $name"; continue; }
  for s in "$S_EN" "$S_ZH" "$S_MIX"; do compare "gpt2 $name: $(printf '%s' "$s" | cut -c1-24)" "$dir/$name" "$s"; done
done

out=$("$AT_BIN" --model "$dir/wordpiece-vocab" tokenize --format json "$S_ZH")
expect_contains "gpt2 with a BERT vocab.txt: WordPiece tokens, [CLS] first" '"tokens":["[CLS]","小","明"' "$out"

# Up to 4 tokens the products go row by row (sgemv): the same numbers.
compare "gpt2 f32, 4 tokens (row by row)" "$dir/f32" "an ox"
compare "gpt2 f32, 1 token" "$dir/f32" "it"

# Tokens: the model's own, mapped back to the sentence.
json=$("$AT_BIN" attend --model "$dir/f32" --format json "$S_MIX")
chk=$(printf '%s' "$json" | $PY -c '
import json, sys
d = json.load(sys.stdin); s = sys.argv[1].encode()
sp = d["spans"]; ok = sp[0][0] == 0 and sp[-1][1] == len(s)
ok = ok and all(a[1] == b[0] for a, b in zip(sp, sp[1:]))
ok = ok and len(d["tokens"]) == len(d["token_ids"]) == len(d["pieces"]) == len(sp)
ok = ok and d["mask"] == "causal" and d["n_layers"] == 3 and d["n_heads"] == 4
print("ok" if ok else "bad %r" % (sp,))' "$S_MIX")
expect_eq "gpt2: spans cover the sentence end to end, one per token" ok "$chk"
expect_contains "gpt2: a leading space shows as ␣" '"␣road"' "$("$AT_BIN" attend --model "$dir/f32" --format json "$S_EN")"
expect_contains "gpt2: a character cut between tokens is shown whole with ~" '~' \
  "$(printf '%s' "$json" | $PY -c 'import json,sys; print(" ".join(json.load(sys.stdin)["tokens"]))')"
causal=$(printf '%s' "$json" | $PY -c '
import json, sys
d = json.load(sys.stdin)
print("ok" if all(w[i][j] == 0 for L in d["layers"] for H in L["heads"] for w in [H["weights"]]
      for i in range(len(w)) for j in range(i + 1, len(w))) else "bad")')
expect_eq "gpt2: the model's own causal mask (upper triangle 0)" ok "$causal"
out=$("$AT_BIN" attend --model "$dir/f32" --layer 3 --head 4 "$S_EN" 2>&1)
expect_contains "gpt2 table: names the model and its size" "model: GPT-2 ($dir/f32), 3 layers x 4 heads" "$out"
expect_contains "gpt2 table: the chosen head" "layer 3 of 3, head 4 of 4" "$out"
out=$("$AT_BIN" attend --model "$dir/f32" --format csv --head all "$S_EN" | wc -l)
expect_eq "gpt2 csv: every head of layer 1 (4 × 18 × 18 rows + header)" 1297 "$out"
expect_status "gpt2: --mask none is refused (GPT-2 is causal)" 2 "$AT_BIN" attend --model "$dir/f32" --mask none "$S_EN"
expect_status "gpt2: --layer 4 of 3 is refused" 2 "$AT_BIN" attend --model "$dir/f32" --layer 4 "$S_EN"
long=$($PY -c 'print(" the" * 70)')
err=$("$AT_BIN" attend --model "$dir/f32" "$long" 2>&1 >/dev/null)
expect_contains "gpt2: more tokens than n_positions is refused" "the sentence has 70 tokens; this model takes at most 64" "$err"

# Bad inputs: one line naming the file and what is wrong, exit 2 (ASan binary).
bad() { # case expected-text
  d="$dir/bad-$1"; rm -rf "$d" "$d.ref.npz"; cp -r "$dir/f32" "$d"
  $PY tests/hf/corrupt.py "$d" "$1" || { not_ok "corrupt $1"; return; }
  err=$("$BIN_CHECK" attend --model "$d" "$S_EN" 2>&1 >/dev/null); rc=$?
  lines=$(printf '%s\n' "$err" | wc -l)
  if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && case "$err" in *"$2"*) true ;; *) false ;; esac; then
    ok "bad folder $1: exit 2, one line: $err"
  else
    not_ok "bad folder $1" "exit $rc, $lines lines, wanted: $2" "got: $err"
  fi
}
bad no-config "--model $dir/bad-no-config: is a folder without config.json"
bad config-not-json "bad-config-not-json/config.json: not valid JSON (near byte 3"
bad model-type "config.json: model_type 'llama' is not one attn-tutor can open (gpt2, bert)"
bad heads-divide "config.json: 5 heads do not divide the width 32"
bad bad-size "config.json: \"n_layer\" should be a whole number from 1 to 256"
bad no-weights "bad-no-weights: no model.safetensors (nor model.safetensors.index.json)"
bad pytorch-bin "pytorch_model.bin is not read; convert it to safetensors"
bad truncated "bad-truncated/model.safetensors: tensor 'ln_f.bias': data_offsets [222080, 222208] run past the end of the data (222108 bytes: the file is truncated or the header lies)"
bad empty-file "bad-empty-file/model.safetensors: not a safetensors file (0 bytes"
bad header-length "bad-header-length/model.safetensors: not a safetensors file (header length"
bad header-not-object "model.safetensors: the safetensors header is not a JSON object"
bad offsets-size "tensor 'h.0.attn.c_attn.weight': data_offsets"
bad offsets-past-end "tensor 'h.1.mlp.c_fc.weight': data_offsets"
bad unknown-dtype "model.safetensors: tensor 'wpe.weight': unknown dtype 'Q4'"
bad int-dtype "model.safetensors: tensor 'wpe.weight' is I32; attn-tutor reads F32, F16 and BF16"
bad duplicate-name "model.safetensors: tensor 'wpe.weight' is named twice in the header"
bad missing-tensor "bad-missing-tensor/model.safetensors: tensor 'h.1.attn.c_attn.weight' is missing"
bad wrong-shape "tensor 'wpe.weight' has shape [64, 32], but config.json makes it [128, 32]"
bad index-escape "model.safetensors.index.json: weight_map puts tensor 'wte.weight' in '../model.safetensors', which is not a file name inside the folder"
bad index-missing-shard "model-00001-of-00002.safetensors: cannot open"
bad index-not-json "model.safetensors.index.json: not a JSON object with a \"weight_map\" object"
bad index-wrong-shard "tensor 'h.2.ln_2.bias' is missing from weight_map"
bad vocab-not-json "bad-vocab-not-json/vocab.json: not valid JSON"
bad vocab-bad-id "vocab.json: the id of piece 'Ġzz' is not a whole number"
bad vocab-beyond "vocab.json: ids reach 100000, beyond the model's vocab_size"
bad vocab-no-byte "vocab.json: no piece for byte 0x00"
bad merges-bad-line "bad-merges-bad-line/merges.txt:4: not two pieces separated by one space"
bad merges-unknown "bad-merges-unknown/merges.txt:224: piece 'qqqq' is not in the vocabulary"
bad merges-result "merges.txt:2: the merge makes"
bad no-merges "no vocab.json and merges.txt"
bad merges-escape "merges.txt:224: piece '�]0;pwned�' is not in the vocabulary"
esc=$(printf '\033')
case "$err" in *"$esc"*) not_ok "a model file's escape sequence reaches the terminal raw" ;;
  *) ok "a model file's escape sequence is shown as �, never sent raw" ;; esac
# A folder without config.json, and a folder given to a command that takes only files.
err=$("$AT_BIN" attend --model models "hello" 2>&1)
expect_eq "a folder without config.json: what it must hold" "attn-tutor attend: --model models: is a folder without config.json: give a model file (e.g. --model models/mini.safetensors) or a Hugging Face model folder (config.json, model.safetensors and the tokenizer's files)" "$err"
