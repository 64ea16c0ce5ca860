# Non-finite inputs: a NaN that no mask hides is an error naming where; one behind a
# mask never reaches the output.
. tests/lib.sh
out=$(printf 'q: [[.nan, 1]]\nk: [[1, 0]]\nv: [[1]]\n' | "$AT_BIN" compute - 2>&1); rc=$?
expect_eq "unmasked NaN in q: exit status" 2 "$rc"
expect_contains "unmasked NaN in q: names query and key" "query 1 against key 1 is not a number" "$out"
out=$(printf 'q: [[1, 0], [0, 1]]\nk: [[.nan, .inf], [1, 0]]\nv: [[.nan, 1], [2, 3]]\nmask: [[0, 1], [0, 1]]\n' | "$AT_BIN" compute --format json - 2>&1); rc=$?
expect_eq "NaN key behind a mask: exit status" 0 "$rc"
expect_contains "NaN key behind a mask: output from the visible key only" '"output":[[2,3],[2,3]]' "$out"
