# compute on given scores in double (shared case 2), no digits the input never had, and
# columns as wide as their widest cell.
. tests/lib.sh
out=$(printf 'scores: [[7999.99, 8000, 2, 1]]\n' | "$AT_BIN" compute -)
# softmax of [7999.99, 8000, 2, 1]: 1/(1+e^0.01) = 0.4975000, then 0.5025000, 0, 0.
expect_contains "case 2 weights to 4 places" "  1      0.4975    0.5025    0.0000    0.0000" "$out"
expect_contains "case 2 scores as typed" "  1   7999.9900 8000.0000    2.0000    1.0000" "$out"
case "$out" in *7999.9902*) not_ok "no float digits in the given scores" "$out" ;; *) ok "no float digits in the given scores" ;; esac
expect_contains "largest weight" "largest weight in each row: 0.5025" "$out"
out=$(printf 'scores: [[7999.99, 8000, 2, 1]]\n' | "$AT_BIN" compute --format json -)
expect_contains "case 2 as JSON" '"scores":[[7999.99,8000,2,1]],"scaled":[[7999.99,8000,2,1]],"weights":[[0.4975,0.5025,0,0]]' "$out"
out=$(printf 'scores: [[-1000, -1001]]\n' | "$AT_BIN" compute --format json -)
expect_contains "case 2 [-1000, -1001]" '"weights":[[0.7310586,0.2689414]]' "$out"

# Wide cells widen their column; every row of a table stays aligned.
out=$(printf 'scores: [[7999.99, 8000, 2, 1], [-1000, -1001, 0, 0]]\n' | "$AT_BIN" compute -)
expect_contains "header over wide columns" "               1          2         3         4
  1    7999.9900  8000.0000    2.0000    1.0000
  2   -1000.0000 -1001.0000    0.0000    0.0000" "$out"
expect_contains "narrow table unchanged" "              1         2         3         4
  1      0.4975    0.5025    0.0000    0.0000
  2      0.0000    0.0000    0.5000    0.5000" "$out"

# q, k, v stay float (sgemm); 7999.99 · 1 is printed as the input says, 7999.99 · 0.5 too.
out=$(printf 'q: [[7999.99], [1]]\nk: [[1], [0.5]]\nv: [[1], [2]]\nscale: 1\n' | "$AT_BIN" compute -)
expect_contains "float scores without spurious digits" "  1   7999.9900 3999.9950" "$out"
# row 2: scores [1, 0.5], weights 1/(1+e^-0.5) = 0.6225, output 0.6225 + 2·0.3775 = 1.3775.
expect_contains "float weights" "  2      0.6225    0.3775" "$out"
expect_contains "float output" "  2      1.3775" "$out"
