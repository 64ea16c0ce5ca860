# compute aligns token labels by display columns per grapheme cluster (case 5:
# 👩🏿‍🔧 is 2 columns, not the 6 its code points would sum to).
. tests/lib.sh
out=$(printf 'tokens: ["👩🏿‍🔧", b]\nq: [[1, 0], [0, 1]]\nk: [[1, 0], [0, 1]]\nv: [[1], [2]]\n' | "$AT_BIN" compute -)
expect_contains "emoji label row aligned" "  👩🏿‍🔧     1.0000    0.0000" "$out"
expect_contains "narrow label row aligned" "  b      0.0000    1.0000" "$out"
