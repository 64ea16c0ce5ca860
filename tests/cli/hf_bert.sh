# attend --model DIR on BERT folders: small random models made by tests/hf/hfgen.py
# (F32, F16, BF16, the bert. prefix with gamma/beta and an MLM head's extra tensor, two
# shards), each compared with a NumPy forward pass written from the BERT paper
# (tests/hf/ref_forward.py): max |Δ| ≤ 1e-4 on every weight of every layer and head;
# the tokens ([CLS] … [SEP], ##pieces, spans); BERT's own bad inputs.
. tests/lib.sh
. tests/hf/lib.sh
hf_setup bert
S_EN="The animal didn't cross the road because it was too tired."
S_ZH="小明今天没来学校，因为他生病了。"
S_MIX="Les élèves ont réussi l'examen — 我love你, 3.14159 👍🏽!"

for v in "f32:" "f16:--dtype F16" "bf16:--dtype BF16" "prefixed:--prefix bert. --gamma-beta" \
         "sharded:--shards 2" "wide:--d 96 --heads 6 --layers 4 --positions 128"; do
  name=${v%%:*} args=${v#*:}
  $PY tests/hf/hfgen.py --bert "$dir/$name" $args --seed 5 || { not_ok "hfgen $name"; continue; }
  for s in "$S_EN" "$S_ZH" "$S_MIX"; do compare "bert $name: $(printf '%s' "$s" | cut -c1-24)" "$dir/$name" "$s"; done
done

compare "bert f32, [CLS] x [SEP] (row by row)" "$dir/f32" "x"

json=$("$AT_BIN" attend --model "$dir/f32" --format json "$S_MIX")
chk=$(printf '%s' "$json" | $PY -c '
import json, sys
d = json.load(sys.stdin); s = sys.argv[1].encode()
t, sp = d["tokens"], d["spans"]
ok = t[0] == "[CLS]" and t[-1] == "[SEP]" and sp[0] == [0, 0] and sp[-1] == [len(s), len(s)]
ok = ok and all(a[1] <= b[0] for a, b in zip(sp, sp[1:])) and d["mask"] == "none"
ok = ok and any(x.startswith("##") for x in t) and "eleves" in t
print("ok" if ok else "bad %r %r" % (t, sp))' "$S_MIX")
expect_eq "bert: [CLS] … [SEP], ##pieces, accents stripped, spans in order" ok "$chk"
both=$(printf '%s' "$json" | $PY -c '
import json, sys
d = json.load(sys.stdin)
w = d["layers"][0]["heads"][0]["weights"]; n = len(w)
print("ok" if any(w[i][j] > 0 for i in range(n) for j in range(i + 1, n)) else "bad")')
expect_eq "bert: attention both ways (weights above the diagonal)" ok "$both"
span=$(printf '%s' "$json" | $PY -c '
import json, sys
d = json.load(sys.stdin); s = sys.argv[1].encode()
i = d["tokens"].index("eleves"); a, b = d["spans"][i]
print(s[a:b].decode())' "$S_MIX")
expect_eq "bert: a piece maps back to the student's own text" "élèves" "$span"
expect_status "bert: --mask causal is refused (BERT attends both ways)" 2 "$AT_BIN" attend --model "$dir/f32" --mask causal "$S_EN"
out=$("$AT_BIN" attend --model "$dir/f32" "$S_EN" 2>&1)
expect_contains "bert table: names the model" "model: BERT ($dir/f32), 3 layers x 4 heads, WordPiece tokens, F32 weights" "$out"
expect_contains "bert table: no mask" "mask: none (bidirectional)" "$out"
# Cased: tokenizer_config.json's do_lower_case false keeps capitals (and accents).
$PY tests/hf/hfgen.py --bert "$dir/cased" --lower false --seed 5
out=$("$AT_BIN" --model "$dir/cased" tokenize --format json "The Élan")
expect_contains "bert cased: capitals kept (not in the small vocabulary: [UNK])" '"tokens":["[CLS]","[UNK]","[UNK]","[SEP]"]' "$out"
out=$("$AT_BIN" --model "$dir/f32" tokenize --format json "The Élan")
expect_contains "bert uncased: lower-cased, accents stripped" '"tokens":["[CLS]","the","e","##l","##a","##n","[SEP]"]' "$out"

bad() { # case expected-text  (a damage done by the shell: $3 …)
  d="$dir/bad-$1"; rm -rf "$d"; cp -r "$dir/f32" "$d"
  eval "$3"
  err=$("$BIN_CHECK" attend --model "$d" "$S_EN" 2>&1 >/dev/null); rc=$?
  lines=$(printf '%s\n' "$err" | wc -l)
  if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && case "$err" in *"$2"*) true ;; *) false ;; esac; then
    ok "bad bert folder $1: exit 2, one line: $err"
  else
    not_ok "bad bert folder $1" "exit $rc, $lines lines, wanted: $2" "got: $err"
  fi
}
bad no-vocab "bad-no-vocab: no vocab.txt (the tokenizer's files)" 'rm "$d/vocab.txt"'
bad vocab-no-cls "bad-vocab-no-cls/vocab.txt: no [CLS] piece: not a BERT vocabulary" 'sed -i "s/^\[CLS\]\$/[XLS]/" "$d/vocab.txt"'
bad vocab-not-utf8 "bad-vocab-not-utf8/vocab.txt:3: not a line of UTF-8 text" 'printf "\377\n" > "$d/x"; sed -i "3r $d/x" "$d/vocab.txt"; sed -i 3d "$d/vocab.txt"'
bad tokcfg-not-json "bad-tokcfg-not-json/tokenizer_config.json: not a JSON object" 'echo "{do_lower" > "$d/tokenizer_config.json"'
bad tokcfg-lower "tokenizer_config.json: \"do_lower_case\" should be true or false" 'echo "{\"do_lower_case\": 1}" > "$d/tokenizer_config.json"'
bad missing-layernorm "bad-missing-layernorm/model.safetensors: tensor 'encoder.layer.2.output.LayerNorm.weight' is missing" \
  '$PY -c "
import json, struct, sys
p = sys.argv[1]; raw = open(p, \"rb\").read(); n = struct.unpack(\"<Q\", raw[:8])[0]
h = json.loads(raw[8:8 + n]); h.pop(\"encoder.layer.2.output.LayerNorm.weight\")
t = json.dumps(h).encode(); open(p, \"wb\").write(struct.pack(\"<Q\", len(t)) + t + raw[8 + n:])" "$d/model.safetensors"'
bad type-vocab "tensor 'embeddings.token_type_embeddings.weight' has shape [2, 32], but config.json makes it [3, 32]" \
  'sed -i "s/\"type_vocab_size\": 2/\"type_vocab_size\": 3/" "$d/config.json"'
