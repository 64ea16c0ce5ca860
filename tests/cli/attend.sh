# attn-tutor attend: tokens, weights, masks, formats, bad input.
. tests/lib.sh
S="The animal didn't cross the road because it was too tired."
json=$("$AT_BIN" attend --format json "$S" 2>/dev/null)
n=$(printf '%s' "$json" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["tokens"]))')
expect_eq "attend: 12 tokens" 12 "$n"
check=$(printf '%s' "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
n = len(d["tokens"]); bad = []
for l, layer in enumerate(d["layers"]):
    for h, head in enumerate(layer["heads"]):
        w = head["weights"]
        if len(w) != n: bad.append("rows %d.%d" % (l, h))
        for i, row in enumerate(w):
            if len(row) != n or abs(sum(row) - 1) > 1e-5: bad.append("row %d.%d.%d" % (l, h, i))
print("ok" if not bad and len(d["layers"]) >= 2 else "bad " + " ".join(bad[:5]))')
expect_eq "attend: every row of every head sums to 1" ok "$check"
causal=$("$AT_BIN" attend --format json --mask causal "$S" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print("ok" if all(w[i][j] == 0 for L in d["layers"] for H in L["heads"] for w in [H["weights"]]
      for i in range(len(w)) for j in range(i + 1, len(w))) and d["mask"] == "causal" else "bad")')
expect_eq "attend: causal mask zeroes the upper triangle" ok "$causal"
digits=$(printf '%s' "$json" | python3 -c '
import json, re, sys
txt = sys.stdin.read(); json.loads(txt)
nums = [x for x in re.findall(r"[-0-9.e]+", txt.split("\"layers\"")[1]) if "." in x and "e" not in x]
print("ok" if nums and max(len(x.lstrip("0.").replace(".", "")) for x in nums) >= 7 else "bad")')
expect_eq "attend: JSON numbers carry 7 significant digits" ok "$digits"
case "$json" in *NaN*|*nan*) not_ok "attend: no NaN in JSON" ;; *) ok "attend: no NaN in JSON" ;; esac
# The untrained weights say so.
out=$("$AT_BIN" attend --untrained "$S" 2>&1)
expect_contains "attend: untrained weights are labelled" "untrained demo weights" "$out"
out=$("$AT_BIN" attend --untrained --format json "$S" 2>&1)
expect_contains "attend: JSON names the untrained model" '"model":"untrained demo weights"' "$out"
# The shipped model is the default and says so; the table names the coreference head.
out=$("$AT_BIN" attend --format json "$S" 2>&1)
expect_contains "attend: the shipped model is the default" '"model":"trained"' "$out"
out=$("$AT_BIN" attend "$S" 2>&1)
expect_contains "attend: the table names the coreference head" "(the coreference head)" "$out"
expect_contains "attend: the table says what the head does, measured" "measured on the training sentences" "$out"
out=$("$AT_BIN" attend "The elephant didn't cross the canal." 2>&1)
expect_contains "attend: unknown words are listed" "never seen in training (2 of 7 tokens, 29%; vectors guessed from character n-grams): elephant canal" "$out"
err=$("$AT_BIN" attend --model models/corpus.yaml "$S" 2>&1 >/dev/null)
expect_contains "attend: a file that is not a model is named" "models/corpus.yaml: not a safetensors file" "$err"
expect_status "attend: a file that is not a model exits 2" 2 "$AT_BIN" attend --model models/corpus.yaml "$S"
# A missing default model falls back to the demo weights with a note on stderr (a copy
# of the binary with no models/ folder beside it).
mkdir -p build/attend-nodata/bin && cp "$AT_BIN" build/attend-nodata/bin/attn-tutor
err=$(ATTN_TUTOR_DATA=/nonexistent build/attend-nodata/bin/attn-tutor attend "$S" 2>&1 >/dev/null)
out=$(ATTN_TUTOR_DATA=/nonexistent build/attend-nodata/bin/attn-tutor attend "$S" 2>/dev/null)
expect_contains "attend: no model file: a note on stderr" "showing untrained demo weights" "$err"
expect_contains "attend: no model file: demo weights" "model: untrained demo weights" "$out"
rm -rf build/attend-nodata
err=$(ATTN_TUTOR_DATA=/nonexistent "$AT_BIN" attend --model /nonexistent/m.safetensors "$S" 2>&1 >/dev/null)
expect_contains "attend: a missing --model file is an error" "m.safetensors" "$err"
expect_status "attend: a missing --model file exits 2" 2 "$AT_BIN" attend --model /nonexistent/m.safetensors "$S"
# Table: CJK tokens take two columns, so the columns line up.
out=$("$AT_BIN" attend --untrained "动物没有过马路，因为它太累了" 2>/dev/null)
hdr=$(printf '%s\n' "$out" | grep '动' | head -1)
row=$(printf '%s\n' "$out" | grep '^它' | head -1)
w1=$(printf '%s' "$hdr" | python3 -c 'import sys,unicodedata as u; s=sys.stdin.read(); print(sum(2 if u.east_asian_width(c) in "WF" else 1 for c in s))')
w2=$(printf '%s' "$row" | python3 -c 'import sys,unicodedata as u; s=sys.stdin.read(); print(sum(2 if u.east_asian_width(c) in "WF" else 1 for c in s))')
expect_eq "attend: header and rows have the same display width" "$w1" "$w2"
# CSV: header and n×n rows for one head.
rows=$("$AT_BIN" attend --format csv --layer 1 --head 2 "$S" 2>/dev/null | wc -l)
expect_eq "attend: CSV has a header and 144 rows" 145 "$rows"
all=$("$AT_BIN" attend --format csv --layer 1 --head all "$S" 2>/dev/null | wc -l)
expect_eq "attend: CSV --head all has every head of layer 1" 577 "$all"
# Bad input.
bad=$(printf 'xx\346\210\221\346\263')
err=$("$AT_BIN" attend "$bad" 2>&1 >/dev/null)
expect_contains "attend: bad UTF-8 names the byte offset" "byte offset 5" "$err"
expect_status "attend: bad UTF-8 exits 2" 2 "$AT_BIN" attend "$bad"
expect_status "attend: no sentence exits 2" 2 "$AT_BIN" attend
err=$("$AT_BIN" attend "   " 2>&1)
expect_eq "attend: only spaces: one clear line" "attn-tutor attend: the sentence has no words, only spaces" "$err"
long=$(python3 -c "print(' '.join(['a'] * 257))")
err=$("$AT_BIN" attend "$long" 2>&1)
expect_contains "attend: too many tokens is named" "the sentence has 257 tokens; the model takes at most 256" "$err"
expect_status "attend: too many tokens exits 2" 2 "$AT_BIN" attend "$long"
expect_status "attend: --layer 9 exits 2" 2 "$AT_BIN" attend --layer 9 "$S"
expect_status "attend: --head 0 exits 2" 2 "$AT_BIN" attend --head 0 "$S"
expect_status "attend: --mask sideways exits 2" 2 "$AT_BIN" attend --mask sideways "$S"
expect_status "attend: --help exits 0" 0 "$AT_BIN" attend --help
# Under ASan: a run and a bad input.
if [ -x "$AT_BIN_ASAN" ]; then
  expect_status "attend (asan): a sentence" 0 "$AT_BIN_ASAN" attend --head all "$S"
  expect_status "attend (asan): bad UTF-8" 2 "$AT_BIN_ASAN" attend "$bad"
fi
