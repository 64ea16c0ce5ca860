# The code lesson (attention-code): its find-the-bug questions are answered by typing the
# corrected line(s). The first three are graded by the formula grader in any notation it
# reads (the buggy line typed back is told the slip it holds); the last two (a mask after
# the softmax, heads concatenated out of order) run on small tensors and are graded by
# what they compute (quiz/code.h): any correct way of writing the lines is right, a wrong
# one is told what it breaks, code the grader cannot read is named, not counted. The same
# in Chinese.
. tests/lib.sh
chk() { "$AT_BIN" --lang "$1" check "attention-code:$2" "$3" --no-save 2>&1; }
expect_not_contains() { # NAME NEEDLE HAYSTACK
  case "$3" in *"$2"*) not_ok "$1" "found: $2" "in: $(printf '%s' "$3" | head -c 600)" ;; *) ok "$1" ;; esac
}
for lang in en zh; do
  expect_status "$lang bug 1: the corrected line is right" 0 chk $lang code-bug-1 \
    "return F.softmax(Q @ K.transpose(-2, -1) / d_k ** 0.5, dim=-1) @ V"
  expect_status "$lang bug 1: … written with math.sqrt and torch.matmul" 0 chk $lang code-bug-1 \
    "return torch.matmul(torch.softmax(torch.matmul(Q, K.T) / math.sqrt(d_k), dim=-1), V)"
  expect_status "$lang bug 2: the corrected line is right" 0 chk $lang code-bug-2 \
    "return torch.softmax(Q @ K.mT / math.sqrt(Q.size(-1)), dim=-1) @ V"
  expect_status "$lang bug 3: the corrected line is right" 0 chk $lang code-bug-3 \
    "return torch.matmul(F.softmax(torch.matmul(Q, K.transpose(-2, -1)) / d_k ** 0.5, dim=-1), V)"
  # bug 4: the mask before the softmax, however it is written
  expect_status "$lang bug 4: masked_fill(~allowed, -inf) before the softmax" 0 chk $lang code-bug-4 \
    'scores = scores.masked_fill(~allowed, float("-inf")); weights = F.softmax(scores, dim=-1); out = weights @ V'
  expect_status "$lang bug 4: torch.where, in one line" 0 chk $lang code-bug-4 \
    "out = F.softmax(torch.where(allowed, scores, float('-inf')), dim=-1) @ V"
  expect_status "$lang bug 4: the additive mask M, as a formula" 0 chk $lang code-bug-4 \
    "softmax(QK^T/sqrt(d_k) + M) V"
  expect_status "$lang bug 4: three lines with line breaks" 0 chk $lang code-bug-4 \
    "scores = scores.masked_fill(mask, -1e9)
weights = F.softmax(scores, dim=-1)
out = weights @ V"
  expect_status "$lang bug 4: the mask after the softmax (the bug typed back)" 1 chk $lang code-bug-4 \
    "weights = F.softmax(scores, dim=-1); weights = weights.masked_fill(~allowed, 0.0); out = weights @ V"
  expect_status "$lang bug 4: a mask of 0 before the softmax" 1 chk $lang code-bug-4 \
    "scores = scores.masked_fill(~allowed, 0); out = F.softmax(scores, dim=-1) @ V"
  expect_status "$lang bug 4: only the mask line: partly right" 3 chk $lang code-bug-4 \
    "scores = scores.masked_fill(~allowed, float('-inf'))"
  expect_status "$lang bug 4: an unknown function: not counted" 2 chk $lang code-bug-4 \
    "out = my_attention(Q, K, V)"
  # bug 5: each token's heads side by side
  expect_status "$lang bug 5: transpose(1, 2) before the reshape" 0 chk $lang code-bug-5 \
    "concat = heads.transpose(1, 2).reshape(B, n, d_model)"
  expect_status "$lang bug 5: permute and flatten" 0 chk $lang code-bug-5 \
    "concat = heads.permute(0, 2, 1, 3).flatten(2)"
  expect_status "$lang bug 5: torch.cat over the heads" 0 chk $lang code-bug-5 \
    "concat = torch.cat([heads[:, i] for i in range(h)], dim=-1)"
  expect_status "$lang bug 5: einops" 0 chk $lang code-bug-5 \
    "concat = einops.rearrange(heads, 'b h n d -> b n (h d)')"
  expect_status "$lang bug 5: the plain reshape (the bug typed back)" 1 chk $lang code-bug-5 \
    "concat = heads.reshape(B, n, d_model)"
  expect_status "$lang bug 5: view of the transposed heads raises" 1 chk $lang code-bug-5 \
    "concat = heads.transpose(1, 2).view(B, n, d_model)"
done
# the question id alone names the one lesson that has it
for lang in en zh; do
  expect_status "$lang check code-bug-4 (no lesson named): right" 0 "$AT_BIN" --lang $lang check code-bug-4 \
    "scores = scores.masked_fill(~allowed, float('-inf')); out = F.softmax(scores, dim=-1) @ V" --no-save
  expect_status "$lang check code-bug-5 (no lesson named): wrong" 1 "$AT_BIN" --lang $lang check code-bug-5 \
    "concat = heads.transpose(2, 3).reshape(B, n, d_model)" --no-save
done
out=$("$AT_BIN" --lang zh check code-bug-5 "concat = heads.transpose(2, 3).reshape(B, n, d_model)" --no-save 2>&1)
expect_contains "zh check code-bug-5: tokens still mixed, in Chinese" "词元还是混在一起" "$out"
out=$(chk en code-bug-1 "return F.softmax(Q @ K.transpose(-2, -1) / d_k, dim=-1) @ V")
expect_contains "bug 1 typed back: the slip is named" "Divided by dₖ instead of √dₖ" "$out"
out=$(chk en code-bug-2 "return torch.softmax(Q @ K.mT / math.sqrt(Q.size(-1)), dim=-2) @ V")
expect_contains "bug 2 typed back: the axis is named" "The softmax runs over the wrong axis" "$out"
out=$(chk zh code-bug-3 "return torch.matmul(F.softmax(torch.matmul(Q, K) / d_k ** 0.5, dim=-1), V)")
expect_contains "bug 3 typed back, zh: K not transposed, in Chinese" "转置" "$out"

# what each wrong answer breaks, in the lesson's words, in both languages
out=$(chk en code-bug-4 "weights = F.softmax(scores, dim=-1) * allowed; out = weights @ V")
expect_contains "bug 4, mask after the softmax: the rows no longer sum to 1" "the rows no longer sum" "$out"
expect_not_contains "bug 4: the right lines are held back" 'masked_fill(~allowed, float("-inf"))' "$out"
out=$(chk zh code-bug-4 "weights = F.softmax(scores, dim=-1) * allowed; out = weights @ V")
expect_contains "bug 4, zh: 行和不再是 1" "行和不再是 1" "$out"
out=$(chk en code-bug-4 "scores = scores.masked_fill(allowed, -1e9); out = F.softmax(scores, dim=-1) @ V")
expect_contains "bug 4, the mask inverted: the future visible" "lets each
token see the future" "$out"
out=$(chk zh code-bug-4 "scores = scores.masked_fill(mask == 0, float('-inf')); out = F.softmax(scores, dim=-1) @ V")
expect_contains "bug 4, zh, the mask inverted" "掩码反了" "$out"
out=$(chk en code-bug-4 "scores = scores.masked_fill(~allowed, float('-inf')); out = F.softmax(scores, dim=-2) @ V")
expect_contains "bug 4, the softmax's axis" "wrong axis" "$out"
out=$(chk en code-bug-4 "scores = scores.masked_fill(~allowed, float('-inf'))")
expect_contains "bug 4, partly right: what is still to come" "stops there: the lines go on to out" "$out"
out=$(chk en code-bug-4 "out = my_attention(Q, K, V)")
expect_contains "bug 4, not counted: the unknown function named with its place" \
  "cannot read this code at character 7: 'my_attention' is not defined here" "$out"
out=$(chk en code-bug-5 "concat = heads.permute(0, 2, 3, 1).reshape(B, n, d_model)")
expect_contains "bug 5, features interleaved" "its features are interleaved" "$out"
out=$(chk zh code-bug-5 "concat = heads.sum(dim=1)")
expect_contains "bug 5, zh, the heads blended" "混在了一起" "$out"
out=$(chk en code-bug-5 "concat = torch.cat(heads.unbind(1), dim=1)")
expect_contains "bug 5, another shape, named" "concat has the shape (2, 12, 5) here; the right lines give (2, 4, 15), that is (B, n, d_model)" "$out"
out=$(chk zh code-bug-5 "concat = heads.transpose(1, 2).view(B, n, d_model)")
expect_contains "bug 5, zh: view() raises, in Chinese, with its place" "第 32 个字符" "$out"
out=$("$AT_BIN" --lang en check attention-code:code-bug-5 "concat = heads.reshape(B, n, d_model)" --no-save --reveal 2>&1)
expect_contains "bug 5 --reveal: the right line" "    concat = heads.transpose(1, 2).reshape(B, n, d_model)" "$out"
out=$("$AT_BIN" --lang en check attention-code:code-bug-5 "concat = heads.reshape(B, n, d_model)" --no-save --format json 2>&1)
expect_contains "bug 5 JSON: the mistake's kind" '"mistake":"code"' "$(printf '%s' "$out" | tr -d ' \n')"
# the answer's bytes never reach the terminal raw (an escape sequence in an unknown name)
out=$(chk en code-bug-5 "$(printf 'concat = x\033]0;pwned\007(heads)')")
expect_not_contains "an escape sequence of the answer is not printed raw" "$(printf '\033')" "$out"

out=$("$AT_BIN" --lang en show attention-code 2>&1)
expect_contains "show: the prediction before the engine's run" "[predict first] Five tokens" "$out"
expect_contains "show: the engine's output is 5 rows of d_v = 64" "n_q = 5 queries, n_k = 5 keys, d_k = 64, d_v = 64" "$out"
expect_contains "show: a code question's right lines" "    concat = heads.transpose(1, 2).reshape(B, n, d_model)" "$out"
expect_contains "show: its known mistakes" "mistake tokens-mixed:" "$out"
