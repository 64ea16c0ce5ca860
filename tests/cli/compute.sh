# attn-tutor compute: case 1 (fully masked row), NaN/inf in masked keys, multi-head JSON,
# bad input with its position, expect lists.
. tests/lib.sh
tmp=$(mktemp -d)
cat > "$tmp/case1.yaml" <<'YAML'
# Case 1: [<pad>, I, am], the first key is padding, causal mask on top, Q = K = 0, V = I.
tokens: [<pad>, I, am]
q: [[0, 0], [0, 0], [0, 0]]
k: [[.nan, .inf], [0, 0], [0, 0]]
v: [[.nan, -.inf, .inf], [0, 1, 0], [0, 0, 1]]
mask:
  - [0, 0, 0]
  - [0, 1, 0]
  - [0, 1, 1]
YAML
out=$("$AT_BIN" compute --format json "$tmp/case1.yaml")
expect_contains "case 1 weights" '"weights":[[0,0,0],[0,1,0],[0,0.5,0.5]]' "$out"
expect_contains "case 1 output" '"output":[[0,0,0],[0,1,0],[0,0.5,0.5]]' "$out"
expect_contains "case 1 row 1 fully masked" '"fully_masked_rows":[1]}' "$out"
expect_contains "case 1 masked scores are null" '"scores":[[null,null,null],[null,0,null],[null,0,0]]' "$out"
case "$out" in *nan*|*NaN*|*inf*) not_ok "case 1: no NaN or inf in the JSON" "$out" ;; *) ok "case 1: no NaN or inf in the JSON" ;; esac
out=$("$AT_BIN" compute - < "$tmp/case1.yaml")
expect_contains "case 1 as a table, from stdin" "(fully masked: no key visible)" "$out"
expect_contains "case 1 table row 3" "  am       0.0000    0.5000    0.5000" "$out"
out=$("$AT_BIN_ASAN" compute --format json "$tmp/case1.yaml" 2>&1)
expect_contains "case 1 under ASan" '"fully_masked_rows":[1]}' "$out"

# Two heads: d_k = 4 and d_v = 2 split in halves; one query, scale 1.
cat > "$tmp/heads.yaml" <<'YAML'
q: [[1, 0, 0, 1]]
k: [[1, 0, 0, 0], [0, 0, 0, 1]]
v: [[1, 10], [2, 20]]
heads: 2
scale: 1
YAML
out=$("$AT_BIN" compute --format json "$tmp/heads.yaml")
# head 1 scores q[0:2]·k[0:2] = [1, 0]: weights 1/(1+e⁻¹) = 0.7310586, 0.2689414;
# head 2 scores [0, 1]: the reverse. Output: head 1 on v column 1, head 2 on column 2.
expect_contains "head 1 weights" '{"scores":[[1,0]],"scaled":[[1,0]],"weights":[[0.7310586,0.2689414]]}' "$out"
expect_contains "head 2 weights" '{"scores":[[0,1]],"scaled":[[0,1]],"weights":[[0.2689414,0.7310586]]}' "$out"
expect_contains "concatenated output" '"output":[[1.268941,17.31059]]' "$out"

# Scores only (the seed's worked example): softmax per row; the real weights.
printf 'tokens: [没]\nkey_tokens: [今天, 下雨, 我, 没, 带, 伞]\nscores: [[0.2, 2.5, 0.8, 0.3, 0.4, 2.0]]\nexpect:\n  - top: 下雨\n  - weight: {to: 下雨, value: 0.42}\n' > "$tmp/seed.yaml"
out=$("$AT_BIN" compute "$tmp/seed.yaml" 2>&1); rc=$?
expect_contains "seed row: 下雨 gets 0.4711" "没     0.0472    0.4711    0.0861    0.0522    0.0577    0.2857" "$out"
expect_contains "expect top holds" "expect 1: ok: the largest weight of query 1 goes to '下雨' (0.4711)" "$out"
expect_contains "expect value fails with the computed value" "expect 2: FAILED: weight (row 1, key 2) = 0.4711 (computed), expected 0.42 ± 0.005" "$out"
expect_eq "a failed expectation exits 1" 1 "$rc"

# Bad input: the position of the problem, exit 2.
printf 'q: [[1, 0], [0, 1]]\nk: [[1, 0], [0, 1]]\nv: [[1, 0], [0, oops]]\n' > "$tmp/bad.yaml"
out=$("$AT_BIN" compute "$tmp/bad.yaml" 2>&1); rc=$?
expect_contains "bad cell named with its position" "bad.yaml:3:17: error: \`v\` row 2 entry 2 should be a number" "$out"
expect_eq "bad input exits 2" 2 "$rc"
printf 'q: [[1, 0]]\nk: [[1, 0, 1]]\nv: [[1]]\n' > "$tmp/shape.yaml"
out=$("$AT_BIN" compute "$tmp/shape.yaml" 2>&1)
expect_contains "d_k mismatch" "shape.yaml:2:4: error: \`k\` rows have 3 numbers but \`q\` rows have 2" "$out"
expect_status "missing file" 2 "$AT_BIN" compute "$tmp/none.yaml"
expect_status "no file" 2 "$AT_BIN" compute
rm -rf "$tmp"
