# attn-tutor show: a lesson as text with the engine's numbers filled in.
. tests/lib.sh
tmp=$(mktemp -d)
mkdir -p "$tmp/en" "$tmp/zh"
cat > "$tmp/en/01-demo.yaml" <<'YAML'
id: demo
lang: en
title: Demo
summary: A lesson for the show test.
steps:
  - text: |
      First paragraph.

      Second paragraph.
  - table:
      header: [Role, Asks]
      rows:
        - [Query, What am I looking for?]
        - [Key, What do I offer?]
  - compute:
      tokens: [a, b]
      q: [[1, 0], [0, 1]]
      k: [[1, 0], [0, 1]]
      v: [[1, 2], [3, 4]]
      scale: 1
  - question:
      id: demo-q
      kind: softmax
      prompt: Weights of 下雨 and 没?
      tokens: [今天, 下雨, 我, 没, 带, 伞]
      scores: [0.1, 0.3, 0.2, 0.5, 0.1, 1.2]
      ask: [下雨, 4]
      explanation: exp, sum, divide.
  - question:
      id: demo-a
      kind: attention
      prompt: The output of row 2?
      q: [[1, 0], [0, 1]]
      k: [[1, 0], [0, 1]]
      v: [[1, 2], [3, 4]]
      scale: 1
      ask: output
      row: 2
      decimals: 3
YAML
sed 's/^lang: en/lang: zh/' "$tmp/en/01-demo.yaml" > "$tmp/zh/01-demo.yaml"
out=$("$AT_BIN" show demo --lessons "$tmp" --lang en)
expect_contains "title underlined" "Demo
====" "$out"
expect_contains "table aligned" "  | Query | What am I looking for? |" "$out"
# weights of row 1 at scale 1: softmax([1, 0]) = [0.7310586, 0.2689414]
expect_contains "compute weights" "  a      0.7311    0.2689" "$out"
# output row 1 = 0.7311·[1, 2] + 0.2689·[3, 4] = [1.5379, 2.5379]
expect_contains "compute output" "  a      1.5379    2.5379" "$out"
expect_contains "softmax answer (Q3 numbers)" "answer: 下雨 0.14 没 0.17  (± 0.01)" "$out"
expect_contains "softmax worked sum" "the sum 9.7504" "$out"
# row 2 output = 0.2689·[1, 2] + 0.7311·[3, 4] = [2.462, 3.462]
expect_contains "attention answer" "answer (output row): 2.462 3.462  (± 0.001)" "$out"
expect_status "unknown lesson" 2 "$AT_BIN" show nosuch --lessons "$tmp"
# No id: the lessons, id and title, in tutor order (the hint `lesson` gives without an id).
out=$("$AT_BIN" show --lessons "$tmp" --lang en)
expect_eq "no id lists the lessons" "1 lesson (attn-tutor show ID prints one, attn-tutor lesson ID opens it):
  demo  Demo" "$out"
expect_status "no id lists (exit status)" 0 "$AT_BIN" show --lessons "$tmp"
empty=$(mktemp -d)
expect_status "no id, no lessons" 2 "$AT_BIN" show --lessons "$empty"
rmdir "$empty"
out=$("$AT_BIN" lesson 2>&1)
expect_contains "lesson without an id points to show" "(attn-tutor show lists them)" "$out"
out=$("$AT_BIN_ASAN" show demo --lessons "$tmp" --lang zh 2>&1)
expect_contains "show under ASan, zh" "(demo, zh)" "$out"
rm -rf "$tmp"
# The shipped self-test: q3's answer, computed.
out=$("$AT_BIN" show self-test --lang en)
expect_contains "shipped q3 answer" "answer: 下雨 0.14 没 0.17" "$out"
