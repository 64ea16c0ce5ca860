# Written answers as users typed them: the textbook cross-attention answer, a colon after
# a label, wordings close to the idea's own; swapped roles stay wrong.
. tests/lib.sh
tmp=$(mktemp -d)
export XDG_STATE_HOME="$tmp"
out=$("$AT_BIN" check --no-save q4 "Q from the decoder and K and V from the encoder"); rc=$?
expect_eq "q4 textbook answer: partly right (exit 3)" 3 "$rc"
expect_contains "q4 textbook answer: Q found" "✓ Q comes from the decoder's current state" "$out"
expect_contains "q4 textbook answer: K, V found" "✓ K and V come from the encoder output" "$out"
expect_contains "q4 textbook answer: what is missing comes with --reveal" \
  "to see what is missing and the reference answer, add --reveal" "$out"
out=$("$AT_BIN" check --no-save --reveal q4 "Q from the decoder and K and V from the encoder")
expect_contains "q4 textbook answer --reveal: says what is missing" "Missing:
  ✗ it aligns target words with the relevant source words" "$out"
expect_status "q4 textbook answer with its purpose" 0 "$AT_BIN" check --no-save q4 \
  "Q from the decoder and K and V from the encoder; it aligns the translation with the source."
out=$("$AT_BIN" check --no-save q4 "Q comes from the encoder, K and V from the decoder"); rc=$?
expect_eq "q4 swapped: wrong" 1 "$rc"
expect_contains "q4 swapped: says why" "you wrote that Q comes from the encoder" "$out"
expect_status "q4 swapped with and: wrong" 1 "$AT_BIN" check --no-save q4 \
  "Q from the encoder and K and V from the decoder"
expect_status "zh q1 只隔一步: correct" 0 "$AT_BIN" --lang zh check --no-save q1 \
  "RNN 中距离随间隔增长，自注意力中任意两个位置只隔一步。"
expect_status "zh q1 依赖距离随间隔增长: correct" 0 "$AT_BIN" --lang zh check --no-save q1 \
  "RNN 的依赖距离随间隔增长；自注意力中任意两个位置直接相连。"
expect_status "en q1 with colons: correct" 0 "$AT_BIN" check --no-save q1 \
  "RNN: the path between two words is N steps long. Self-attention: one step."
expect_status "en q1 with colons, swapped: wrong" 1 "$AT_BIN" check --no-save q1 \
  "RNN: one step. Self-attention: the path between two words is N steps long."
rm -rf "$tmp"
