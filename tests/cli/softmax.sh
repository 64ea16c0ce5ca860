# attn-tutor softmax: the worked steps and the numbers of Q3 and case 2.
. tests/lib.sh
out=$("$AT_BIN" softmax 0.1 0.3 0.2 0.5 0.1 1.2)
expect_contains "softmax Q3 sum" "sum of exp = 9.7504" "$out"
expect_contains "softmax Q3 row 2" "2        0.3000        1.3499        0.1384" "$out"
expect_contains "softmax Q3 row 4" "4        0.5000        1.6487        0.1691" "$out"
out=$("$AT_BIN" softmax --format json 7999.99 8000 2 1)
expect_contains "softmax huge scores" '"weights":[0.4975,0.5025,0,0]' "$out"
out=$("$AT_BIN" softmax --format json -1000 -1001)
expect_contains "softmax negative scores" '"weights":[0.7310586,0.2689414]' "$out"
expect_status "softmax rejects a word" 2 "$AT_BIN" softmax 1 abc
expect_status "softmax needs a score" 2 "$AT_BIN" softmax
# A number beyond a double's range is named as such, not as "not a number".
out=$("$AT_BIN" softmax 1e400 2>&1)
expect_eq "softmax 1e400 is too large" "attn-tutor softmax: argument 1: '1e400' is too large (out of range: a double holds at most about ±1.8e308)" "$out"
expect_status "softmax 1e400" 2 "$AT_BIN" softmax 1e400
out=$("$AT_BIN" softmax 1 -1e400 2>&1)
expect_contains "softmax -1e400 is too large" "argument 2: '-1e400' is too large (out of range" "$out"
out=$("$AT_BIN" softmax 1 1e-400 2>&1)
expect_contains "softmax 1e-400 is too close to 0" "argument 2: '1e-400' is too close to 0 (out of range" "$out"
out=$("$AT_BIN" softmax --scale 1e999 1 2 2>&1)
expect_contains "--scale 1e999 is too large" "--scale wants a number: '1e999' is too large (out of range" "$out"
out=$("$AT_BIN" softmax 1 inf 2>&1)
expect_contains "softmax inf is not finite" "argument 2: 'inf' is not a finite number" "$out"
out=$("$AT_BIN" softmax 1 0,5 2>&1)
expect_contains "softmax 0,5 is not a number" "argument 2: '0,5' is not a number (write decimals with a dot: 0.5)" "$out"
