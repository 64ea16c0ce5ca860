# The code lesson (attention-code): its find-the-bug questions are graded by the formula
# grader on the corrected line, in any notation the grader reads; the buggy line typed
# back is told the slip it holds; the same in Chinese; the two questions the formula
# grader cannot read (a mask after the softmax, heads concatenated out of order) are
# choices of the corrected line.
. tests/lib.sh
chk() { "$AT_BIN" --lang "$1" check "attention-code:$2" "$3" --no-save 2>&1; }
for lang in en zh; do
  expect_status "$lang bug 1: the corrected line is right" 0 chk $lang code-bug-1 \
    "return F.softmax(Q @ K.transpose(-2, -1) / d_k ** 0.5, dim=-1) @ V"
  expect_status "$lang bug 1: … written with math.sqrt and torch.matmul" 0 chk $lang code-bug-1 \
    "return torch.matmul(torch.softmax(torch.matmul(Q, K.T) / math.sqrt(d_k), dim=-1), V)"
  expect_status "$lang bug 2: the corrected line is right" 0 chk $lang code-bug-2 \
    "return torch.softmax(Q @ K.mT / math.sqrt(Q.size(-1)), dim=-1) @ V"
  expect_status "$lang bug 3: the corrected line is right" 0 chk $lang code-bug-3 \
    "return torch.matmul(F.softmax(torch.matmul(Q, K.transpose(-2, -1)) / d_k ** 0.5, dim=-1), V)"
  expect_status "$lang bug 4: the right replacement" 0 chk $lang code-bug-4 a
  expect_status "$lang bug 4: a mask of 0 before the softmax is not" 1 chk $lang code-bug-4 c
  expect_status "$lang bug 5: the right replacement" 0 chk $lang code-bug-5 b
done
out=$(chk en code-bug-1 "return F.softmax(Q @ K.transpose(-2, -1) / d_k, dim=-1) @ V")
expect_contains "bug 1 typed back: the slip is named" "Divided by dₖ instead of √dₖ" "$out"
out=$(chk en code-bug-2 "return torch.softmax(Q @ K.mT / math.sqrt(Q.size(-1)), dim=-2) @ V")
expect_contains "bug 2 typed back: the axis is named" "The softmax runs over the wrong axis" "$out"
out=$(chk zh code-bug-3 "return torch.matmul(F.softmax(torch.matmul(Q, K) / d_k ** 0.5, dim=-1), V)")
expect_contains "bug 3 typed back, zh: K not transposed, in Chinese" "转置" "$out"
out=$("$AT_BIN" --lang en show attention-code 2>&1)
expect_contains "show: the prediction before the engine's run" "[predict first] Five tokens" "$out"
expect_contains "show: the engine's output is 5 rows of d_v = 64" "n_q = 5 queries, n_k = 5 keys, d_k = 64, d_v = 64" "$out"
